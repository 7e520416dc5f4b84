#!/bin/bash
# Session 42 call 10: SPLIT_K's O hand-over through a swizzled buffer (sm90_fwd HANDOVER_SWIZZLE) against the unswizzled
# one, in the split-key few-program builds: float64 checks, graph replay (scripts/flag_ab.py --cases splitk), with the
# API's one-consumer build at 512 keys in the same rounds.
#   git apply docs/experiments/session42_handover_swizzle.diff; bash scripts/session42_run10.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 500 python3 scripts/flag_ab.py --flag HANDOVER_SWIZZLE --cases splitk --rounds 15 --out "$OUT" 2>&1 \
  | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
