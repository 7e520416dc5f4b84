#!/bin/bash
# Session 11, device run 3: the Gluon one-consumer 64x128 tiles for few-program D=64 non-causal grids with
# FEW_PROGRAMS_MID_SEQ <= seq_k < FEW_PROGRAMS_LONG_SEQ (variants.SM90_FEW_PROGRAMS_MID). GPU tests of the 4 new
# variants (float64 on poisoned outputs, 16K-token grid, launched == audited) and of the few-program dispatch
# through the API; memcheck and synccheck over the sanitizer child (now with such a grid); the small shapes
# through the API (eager and graph replay, beside the SDPA backends); the same tiles at D=128 (1,8,512,128).
#   bash scripts/session11_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
TESTS=tests/test_gpu.py OUT=$OUT bash scripts/session9_tests.sh 300 "m64n128w4s2 and d64" "few_program_grids_at_d64"
TOOLS="memcheck synccheck" SAN_LIMIT=200 bash scripts/sanitize_child.sh
timeout 150 python3 -m dhpfa bench --dtypes bf16 --parts small --out $OUT/bench 2>&1 | tail -12
timeout 120 python3 scripts/small_tiles.py --out $OUT --preset x1d128 --shapes "1,8,512,128" --rounds 15
