#!/bin/bash
# Session 26 run 6: evidence for the D=64 dispatch of session 26 and the GPU tests of the final source. Hardware counters
# through the API (5 input classes, 5 repeats of one input) at (8,32,2048,64) and (4,32,6144,64) causal, where the API
# now runs the three-consumer build (the Triton 64-row tiles before); the GPU tests of the Gluon builds and the dispatch
# (pytest-xdist, failures once more on 2 workers); the Triton 64-row tiles against the Gluon builds on the short causal
# cells at D=128 / 256 (scripts/ab_sm90.py, graph replay); dudect (2,000 samples a class) at (8,32,2048,64).
#   bash scripts/session26_run6.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
COUNTERS_LIMIT=120 bash scripts/counters_batch.sh "8,32,2048,64" "4,32,6144,64 --causal"
echo "counters $(( $(date +%s) - t0 )) s"
timeout 60 python3 scripts/precompile.py --jobs 16 --match sm90_ws --match bf16 2>&1 | tail -1
K="protocol_grid or head_dims_odd or one_query_tile_per_head or bitwise or repeated_calls or three_consumer or m192 or m128n128"
timeout 150 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py tests/test_sm90_fwd.py -o cache_dir=/tmp/pc -rf \
    -k "$K" > "$OUT/gpu_tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/gpu_tests.log"
timeout 50 python3 -m pytest -q -m gpu -n 2 tests/test_gpu.py tests/test_sm90_fwd.py -o cache_dir=/tmp/pc --lf \
    --lfnf=none -rf -k "$K" > "$OUT/gpu_tests_lf.log" 2>&1
echo "failed ones again rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/gpu_tests_lf.log"
timeout 120 python3 scripts/ab_sm90.py --out "$OUT/ab" --configs t_m64n64s3_d128,t_m64n32s3_d256,n64s3,n64s2 \
    --cases 128:512,128:1024,256:512 --reference dhpfa --rounds 11 2>&1 | grep -v "^\[" | tail -8
echo "ab $(( $(date +%s) - t0 )) s"
timeout $(( 580 - ($(date +%s) - t0) )) python3 -m dhpfa leak --shape 8,32,2048,64 --samples ${SAMPLES:-2000} \
    --out $OUT/leak 2>&1 | grep -v "^\[" | tail -8
echo "total $(( $(date +%s) - t0 )) s"
