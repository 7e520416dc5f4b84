#!/bin/bash
# Session 37 call 7: BALANCE again, more rounds: D=128 causal 512 (n64s3, the API's build there) and D=256 causal
# 512-16K (n64s2, the API's build at every causal length), against the same builds without it.
#   bash scripts/session37_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 240 python3 scripts/ab_sm90.py --cases 128:512,256:512,256:1024,256:2048 --graph \
  --no-correctness --rounds 25 --reference dhpfa --configs n64s3_nobal,n64s3_bal,n64s2_nobal,n64s2_bal \
  --out "$OUT/short" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/ab_sm90.py --cases 256:4096,256:8192,256:16384 \
  --no-correctness --rounds 15 --reference dhpfa --configs n64s2_nobal,n64s2_bal \
  --out "$OUT/long" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
