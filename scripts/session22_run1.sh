#!/bin/bash
# Prepared in session 21 for the next device run (not run yet): the GPU tests of what session 21 wrote without a device
# (paged caches, kvcache prefill chunks on the dense kernels, rotary, the fast launchers of the varlen plans), then
# the paged part of varlen_bench (paged builds beside the contiguous ones on the same keys).
#   bash scripts/session22_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 200 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -6
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "cached_launch or repeated or launched_binary or torch_compile" 2>&1 | tail -4
echo "tests $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts paged 2>&1 | tail -8
echo "total $(( $(date +%s) - t0 )) s"
