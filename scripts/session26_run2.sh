#!/bin/bash
# Session 26 run 2: the D=64 dispatch change (variants.GLUON_LONG_SEQ_K: the three-consumer build from 1,025 keys, causal
# 4,097) checked. scripts/ab_sm90.py against the Triton 64-row tiles the API ran there before (t_m64n64s3), with the API
# (new dispatch) beside: the crossovers (1.5K, 3K, 6K), bf16 and fp16; then the GPU tests of the D=64 dispatch.
#   bash scripts/session26_run2.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 250 python3 scripts/ab_sm90.py --out "$OUT/ab_bf16" --configs m192n128s2_x3_nopp,t_m64n64s3 \
    --cases 64:1024,64:1536,64:2048,64:3072,64:4096,64:6144,64:8192 --reference t_m64n64s3 --rounds ${ROUNDS:-11} \
    2>&1 | grep -v "^\[" | tail -16
echo "bf16 $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/ab_sm90.py --out "$OUT/ab_fp16" --configs m192n128s2_x3_nopp,t_m64n64s3 --dtype fp16 \
    --no-correctness --cases 64:2048,64:4096,64:8192 --reference t_m64n64s3 --rounds ${ROUNDS:-11} \
    2>&1 | grep -v "^\[" | tail -8
echo "fp16 $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py tests/test_sm90_fwd.py tests/test_tune.py \
    -p no:cacheprovider -rf -k "protocol_grid or head_dims_odd or one_query_tile_per_head or bitwise or repeated_calls or three_consumer" > "$OUT/gpu_tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/gpu_tests.log"
