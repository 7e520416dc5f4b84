#!/bin/bash
# Session 20, device run 6: run 5 again with grouped builds apart again (GROUP constexpr, "_gqa": run 5 lost 7-12% of prefill speed
# to the run-time group size), 234 varlen binaries: GPU tests, decode-like calls, the grid and options.
#   bash scripts/session20_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -3
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts decode,grid,options 2>&1 | tail -22
