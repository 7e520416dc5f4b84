#!/bin/bash
# Session 29 run 3: the whole GPU suite on the final source (session 26 run 7's steps with shorter limits, so the call
# fits the device tool's 10 minutes): test_gpu + test_sm90_fwd + test_varlen under pytest-xdist (8 workers; what
# fails there, e.g. out of memory beside other workers, once more on 2), then compute-sanitizer memcheck and synccheck
# over the sanitizer child.
#   bash scripts/session29_run3.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 150 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 290 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py tests/test_sm90_fwd.py tests/test_varlen.py \
    -o cache_dir=/tmp/pc -rf > "$OUT/gpu_tests.log" 2>&1
echo "parallel tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/gpu_tests.log"
timeout 90 python3 -m pytest -q -m gpu -n 2 tests/test_gpu.py tests/test_sm90_fwd.py tests/test_varlen.py \
    -o cache_dir=/tmp/pc --lf --lfnf=none -rf > "$OUT/gpu_tests_lf.log" 2>&1
echo "failed ones again rc $? $(( $(date +%s) - t0 )) s"; tail -6 "$OUT/gpu_tests_lf.log"
SAN_LIMIT=50 bash scripts/sanitize_child.sh
echo "total $(( $(date +%s) - t0 )) s"
