#!/bin/bash
# Prepared in session 6, not yet run: the experimental SKIP_MASKED build (each consumer warpgroup computes
# only its own causal blocks; sm90_fwd._consume_tile). First its GPU tests, under a timeout (a turn or
# ring-slot mismatch would hang), then the A/B on the causal cells it can change (64-key blocks: D=128
# S <= 1K in graph replay, D=256; D=64 three consumers).   bash scripts/session7_skip.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/graph" "$OUT/eager"
timeout 240 python3 -m pytest tests/test_sm90_fwd.py -m gpu -q -p no:cacheprovider -x -k skip \
  2>&1 | grep -E "passed|failed|Error|error|assert" | tail -8
timeout 150 python3 scripts/ab_sm90.py --out $OUT/graph --graph --reference dhpfa --configs n64s3,n64s3_skip \
  --cases 128:512,128:1024 2>&1 | tail -6
timeout 200 python3 scripts/ab_sm90.py --out $OUT/eager --reference dhpfa \
  --configs n64s2,n64s2_skip,m192n128s2_x3_nopp,m192n128s2_x3_nopp_skip --cases 256:2048,256:16384,64:8192,64:16384 \
  2>&1 | tail -10
