#!/bin/bash
# Session 42 call 11: issue 5's (1,8,512,64) with two consumer warpgroups splitting each tile's keys on 128-key blocks
# (SPLIT_K, with and without PV_OVERLAP) beside the shipped 64-key split-key build and the API's one-consumer build
# (scripts/small_tiles.py --preset skn128: float64 checks, graph replay, 15 rounds), non-causal.
#   bash scripts/session42_run11.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 400 python3 scripts/small_tiles.py --preset skn128 --causal 0 --rounds 15 \
  --shapes "1,8,512,64;2,8,512,64;1,8,768,64;1,8,512,128" --out "$OUT" 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
