#!/bin/bash
# Session 20, device run 13 (review): the split builds and combine kernels after they share _ws_rows (the workspace
# addresses, written twice before; 126 binaries changed, audit PASS offline): the varlen GPU tests and the decode part.
#   bash scripts/session20_run13.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -3
timeout 200 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts decode 2>&1 | tail -8
