#!/bin/bash
# Session 29 run 1: calls past CUDA's 65,535-program second grid axis (dispatch.batch_slices: dense prefill and packed
# decode on the Triton tiles, varlen), the GPU tests of the Triton variants and the dense dispatch (regression), then
# an A/B at D=128 2K-16K of the two-consumer builds with one Q buffer (n128s2, the API's at 16K), two (n128s2_qd, the
# API's at 1K-8K) and three 128-key stages (n128s3), beside the API and cuDNN (16K-token grid, 15 rounds).
#   bash scripts/session29_run1.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
nvidia-smi --query-gpu=name,memory.used,clocks.sm,clocks.max.sm --format=csv
t0=$(date +%s)
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -o cache_dir=/tmp/pc -rf -k "second_axis" > "$OUT/slices.log" 2>&1
echo "slice tests rc $? $(( $(date +%s) - t0 )) s"; tail -3 "$OUT/slices.log"
t0=$t0 bash scripts/triton_gpu_tests.sh
timeout 240 python3 scripts/ab_sm90.py --out "$OUT" --configs n128s2,n128s2_qd,n128s3 --no-correctness \
  --cases 128:2048,128:4096,128:8192,128:16384 --rounds 15 --reference dhpfa 2>&1 | grep -v Warning | tail -12
echo "total $(( $(date +%s) - t0 )) s"
