#!/bin/bash
# Session 20, device run 11: flash_attn_with_kvcache on the varlen kernel (key rows as a (start, end) pair per sequence:
# the kernel's K_STRIDE, which changed every varlen binary): the varlen GPU tests with the kvcache decode loop, the
# prefill grid and the decode part again.
#   bash scripts/session20_run11.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -3
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts decode,grid 2>&1 | tail -20
