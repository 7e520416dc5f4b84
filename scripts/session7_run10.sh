#!/bin/bash
# Session 7, device run 10: SPLIT_K (two consumer warpgroups take alternate key blocks of one 64-row tile,
# merged through shared memory; few-program grids): its GPU tests under a timeout (a barrier mismatch would
# hang), then graph replay against the shipped few-program tiles (small_tiles.py --preset splitk).
#   bash scripts/session7_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/splitk"
timeout 200 python3 -m pytest tests/test_sm90_fwd.py -m gpu -q -p no:cacheprovider -x -k splitk 2>&1 \
  | grep -E "passed|failed|Error|error|assert" | tail -8
timeout 240 python3 scripts/small_tiles.py --out $OUT/splitk --preset splitk --rounds 11 \
  --shapes "1,8,512,64;1,8,512,128;1,8,512,256;1,4,2048,64" 2>&1 | tail -70
