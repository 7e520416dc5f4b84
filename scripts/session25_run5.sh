#!/bin/bash
# Session 25 run 5 (experiment): attn_fwd_tma's row sums at D=64 on the tensor cores (triton_fwd.L_DOT) against the FP32
# sums, through the API on issue 2's D=64 short cells (scripts/l_dot_ab.py), then the GPU tests of the D=64 TMA tiles.
#   bash scripts/session25_run5.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 240 python3 scripts/l_dot_ab.py --out "$OUT/ab" --rounds ${ROUNDS:-15} 2>&1 | grep -v "^\[" | tail -9
echo "ab $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 4 tests/test_gpu.py tests/test_triton_fwd.py -p no:cacheprovider -rf \
    -k "attn_fwd_tma and d64" > "$OUT/gpu_tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/gpu_tests.log"
