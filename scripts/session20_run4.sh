#!/bin/bash
# Session 20, device run 4: grouped-query heads as rows of one varlen tile (GROUP; 144 varlen variants): GPU tests,
# decode-like varlen calls (one head per tile / grouped / FA2 varlen / dense padded), and the varlen grid and options
# again (the non-grouped binaries changed too: kv_bounds_rows, _varlen_rows).
#   bash scripts/session20_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 240 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -3
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts decode,grid,options 2>&1 | tail -22
