#!/bin/bash
# Session 65 call 7: a map of decode of grouped heads (32 / 8) against cuDNN after this session's rules, for the next
# session: peer_sweep.py --set decodemap (16-1,600 pairs x 1,024 / 4,096 / 16,384 keys x D = 64 / 128, 78 cells).
#   bash scripts/session65_run7.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== peer_sweep --set decodemap ($(( $(date +%s) - t0 )) s)"
timeout 330 python3 scripts/peer_sweep.py --set decodemap --peers sdpa_cudnn --rounds 5 --budget-s 280 --out "$OUT/map" \
  2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
