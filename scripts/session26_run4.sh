#!/bin/bash
# Session 26 run 4: SPLIT_KV builds of 8-64 parts folded into one binary (sm90_fwd.SPLIT_KV_FOLD). Precompile the split
# builds, then scripts/kv_fold_ab.py (the folded build against one binary per part count, through the API, graph replay,
# float64 and repeatability), then the GPU tests of the split builds (every shipped split variant against float64 on a
# full grid, launched == audited binary, packed decode, the split rules) under pytest-xdist, failures once more on 2.
#   bash scripts/session26_run4.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/kv_fold_ab.py --out "$OUT" --rounds ${ROUNDS:-9} 2>&1 | grep -v "^\[" | tail -14
echo "ab $(( $(date +%s) - t0 )) s"
K="kv or split_the_keys_across or grouped_heads or one_query_gqa or packed or decode"
timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py tests/test_sm90_fwd.py tests/test_varlen.py \
    -o cache_dir=/tmp/pc -rf -k "$K" > "$OUT/gpu_tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/gpu_tests.log"
timeout 90 python3 -m pytest -q -m gpu -n 2 tests/test_gpu.py tests/test_sm90_fwd.py tests/test_varlen.py \
    -o cache_dir=/tmp/pc --lf --lfnf=none -rf -k "$K" > "$OUT/gpu_tests_lf.log" 2>&1
echo "failed ones again rc $? $(( $(date +%s) - t0 )) s"; tail -6 "$OUT/gpu_tests_lf.log"
