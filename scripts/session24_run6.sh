#!/bin/bash
# Session 24 run 6: SPLIT_KV's meetings of up to 8 programs (sm90_fwd.SPLIT_RADIX) against the binary tree of pairs:
# timing and float64 through the API (scripts/split_radix_ab.py), then the GPU tests of the split builds (8-64 parts
# among them; float64, repeats and CUDA-graph replays, per-variant float64 / full grid / launched == audited / cached ==
# JIT) under pytest-xdist, and compute-sanitizer over the sanitizer child (split cases at every head dim).
# Before the run, on this machine: mkdir -p .whl && cp /opt/pypi/files/pytest_xdist-3.8.0-py3-none-any.whl \
#   /opt/pypi/files/execnet-2.1.2-py3-none-any.whl .whl/
#   bash scripts/session24_run6.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 100 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/split_radix_ab.py --out "$OUT/ab" --rounds ${ROUNDS:-9} 2>&1 | grep -v "^\[" | tail -16
echo "ab $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 14 tests/test_gpu.py -p no:cacheprovider -rf \
    -k "split_the_keys_across or grouped_heads_run_packed or one_query_gqa or packed_decode or kv8 or kv16 or kv32 or kv64" \
    > "$OUT/gpu_tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -6 "$OUT/gpu_tests.log"
SAN_LIMIT=90 bash scripts/sanitize_child.sh
echo "total $(( $(date +%s) - t0 )) s"
