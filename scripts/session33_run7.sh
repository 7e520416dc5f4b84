#!/bin/bash
# Session 33 run 7: the rule's keys-to-queries ratio (VARLEN_SM90_LONG_K = 4): caches holding 2 and 4 times the chunk
# (scripts/paged_rule_sweep.py --keys-per-query), D=128, the new rule's choices printed (paged / contiguous).
#   bash scripts/session33_run7.sh   (device tool; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for r in 2 4; do
  timeout 150 python3 scripts/paged_rule_sweep.py --keys-per-query $r --dims 128 --chunks 128,256,512,1024 \
    --rounds ${ROUNDS:-7} --out "$OUT" 2>&1 | tail -9
done
echo "elapsed $(( $(date +%s) - t0 )) s"
