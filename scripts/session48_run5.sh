#!/bin/bash
# Session 48 call 5: where decode-like split-KV calls spend their time (scripts/decode_stamps.py: sm90_fwd STAMP builds of
# the cluster and global trees, stamps per program and level, beside each build's graph-replay time).
#   bash scripts/session48_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 400 python3 scripts/decode_stamps.py --out "$OUT" --launches 30
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
