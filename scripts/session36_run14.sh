#!/bin/bash
# Session 36 call 14: smoke run of the decode scripts after their shared set-up moved to scripts/decode_cases.py (one
# round each; timings not for the log).
#   bash scripts/session36_run14.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 60 python3 scripts/combine_ab.py --rounds 1 --out "$OUT" 2>&1 | tail -2
timeout 60 python3 scripts/decode_switch_ab.py --switch dhpfa.api.KVCACHE_PLANS --values True,False --d 64 --rounds 1 \
  --out "$OUT" 2>&1 | tail -2
timeout 60 python3 scripts/maxnreg_ab.py --rounds 1 --out "$OUT" 2>&1 | tail -2
timeout 60 python3 scripts/decode_step_time.py --rounds 1 --out "$OUT/st" 2>&1 | tail -2
timeout 60 python3 scripts/decode_split_sweep.py --d 64 --shapes "8,4096" --splits 1,2 --rounds 1 --lengths random \
  --out "$OUT" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
