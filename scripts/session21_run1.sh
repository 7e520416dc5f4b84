#!/bin/bash
# Session 21, device run 1: varlen calls of equal lengths on the dense kernels (api._equal_varlen: the dense Hopper
# builds, then triton_fwd.varlen_equal_guard): the GPU tests of that path, then the "equal" part of varlen_bench (API
# beside the varlen kernel forced, the dense call on the same rows, FA2's varlen).
#   bash scripts/session21_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 240 python3 -m pytest -q -m gpu tests/test_varlen.py -k "equal" -p no:cacheprovider 2>&1 | tail -4
echo "tests $(( $(date +%s) - t0 )) s"
timeout 320 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts equal 2>&1 | tail -18
echo "total $(( $(date +%s) - t0 )) s"
