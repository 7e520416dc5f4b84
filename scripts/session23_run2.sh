#!/bin/bash
# Session 23 run 2: the whole GPU test suite at once. The per-variant tests of tests/test_gpu.py compile each shipped
# binary twice (JIT, then offline without the cache) and took about 15 minutes on one core, so they run under
# pytest-xdist (14 workers; its wheels and execnet's, from this machine's /opt/pypi/files, are carried in the ignored
# .whl/ folder and unzipped onto PYTHONPATH). Tests that time the GPU (envelope, measure, tune) run alone afterwards.
# Before the run, on this machine: mkdir -p .whl && cp /opt/pypi/files/pytest_xdist-3.8.0-py3-none-any.whl \
#   /opt/pypi/files/execnet-2.1.2-py3-none-any.whl .whl/
#   bash scripts/session23_run2.sh   (device tool: carry [".whl"]; writes under $OUT)
# The 16K-token grid tests need fewer workers (4: scripts/session23_run3.sh) or they run out of GPU memory.
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 170 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 330 python3 -m pytest -q -m gpu -n 14 tests/test_gpu.py tests/test_sm90_fwd.py tests/test_varlen.py \
    -p no:cacheprovider -rf > "$OUT/gpu_tests.log" 2>&1
echo "parallel tests rc $? $(( $(date +%s) - t0 )) s"; tail -15 "$OUT/gpu_tests.log"
timeout 80 python3 -m pytest -q -m gpu tests/test_envelope.py tests/test_measure.py tests/test_tune.py \
    -p no:cacheprovider -rf 2>&1 | tail -6
echo "total $(( $(date +%s) - t0 )) s"
