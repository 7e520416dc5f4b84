#!/bin/bash
# Session 26 run 7: the whole GPU suite on the final source (the D=64 dispatch of session 26): test_gpu + test_sm90_fwd +
# test_varlen under pytest-xdist (8 workers; what fails there, e.g. out of memory beside other workers, once more on
# 2), then compute-sanitizer memcheck and synccheck over the sanitizer child.
# Before the run, on this machine: mkdir -p .whl && cp /opt/pypi/files/pytest_xdist-3.8.0-py3-none-any.whl \
#   /opt/pypi/files/execnet-2.1.2-py3-none-any.whl .whl/
#   bash scripts/session26_run7.sh   (device tool: carry [".whl"]; writes under $OUT)
# On an 80 GB H100, 8 workers run some tests out of memory beside each other (157 in session 33); the retry on 2 workers
# runs them again (21 s there): faster in all than fewer workers.
# Time limits (s): PRECOMPILE_LIMIT (170), TESTS_LIMIT (300), RETRY_LIMIT (150), SAN_LIMIT (80).
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout ${PRECOMPILE_LIMIT:-170} python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout ${TESTS_LIMIT:-300} python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py tests/test_sm90_fwd.py tests/test_varlen.py \
    -o cache_dir=/tmp/pc -rf > "$OUT/gpu_tests.log" 2>&1
echo "parallel tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/gpu_tests.log"
timeout ${RETRY_LIMIT:-150} python3 -m pytest -q -m gpu -n 2 tests/test_gpu.py tests/test_sm90_fwd.py tests/test_varlen.py \
    -o cache_dir=/tmp/pc --lf --lfnf=none -rf > "$OUT/gpu_tests_lf.log" 2>&1
echo "failed ones again rc $? $(( $(date +%s) - t0 )) s"; tail -6 "$OUT/gpu_tests_lf.log"
SAN_LIMIT=${SAN_LIMIT:-80} bash scripts/sanitize_child.sh
echo "total $(( $(date +%s) - t0 )) s"
