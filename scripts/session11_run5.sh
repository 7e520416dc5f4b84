#!/bin/bash
# Session 11, device run 5: the same tiles for few-program D=128 non-causal grids (SM90_FEW_PROGRAMS_MID now has
# (128, False)). GPU tests of the 4 new D=128 variants and of the few-program dispatch (D=64 and D=128) through the
# API; memcheck and synccheck over the sanitizer child; (1,8,512,128) through the API beside the tiles (15 rounds).
#   bash scripts/session11_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
TESTS=tests/test_gpu.py OUT=$OUT bash scripts/session9_tests.sh 300 "m64n128w4s2 and d128" "few_program_grids"
TOOLS="memcheck synccheck" SAN_LIMIT=200 bash scripts/sanitize_child.sh
timeout 120 python3 scripts/small_tiles.py --out $OUT --preset x1d128 --shapes "1,8,512,128" --rounds 15
