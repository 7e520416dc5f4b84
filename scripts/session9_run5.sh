#!/bin/bash
# Session 9, device run 5 (the kernels are session 8's again): the GPU tests, among them the two big-grid
# tests session 8 refactored after its last GPU run; then D=128 short cells, n128s2 against n128s3 (three
# stages; O staged in Q's tile, which then cannot be prefetched).
#   bash scripts/session9_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/ab"
bash scripts/session9_tests.sh 330 "thousands_of_programs or full_grid" "persistent or three" \
  "(split or deterministic) and not thousands_of_programs and not full_grid and not persistent and not three"
timeout 120 python3 scripts/ab_sm90.py --out $OUT/ab --configs n128s2,n128s3 --cases 128:512,128:1024,128:2048 \
  --rounds 10 --reference tree/n128s2 --no-correctness 2>&1 | tail -7
