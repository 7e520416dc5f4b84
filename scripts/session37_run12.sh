#!/bin/bash
# Session 37 call 12: more bytes in flight at D=128 causal 512 (call 11: cuDNN sustains 74% of DRAM peak and 83% of L2
# throughput there against our ~63% / 65%): one-consumer 64-row Gluon tiles with two CTAs an SM (m64n64s2_x1_r128) and
# the one-consumer 64-row tiles (m64n64s3_x1), beside n64s3 with and without BALANCE (graph replay, 15 rounds).
#   bash scripts/session37_run12.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 300 python3 scripts/ab_sm90.py --cases 128:512 --graph --rounds 15 --reference dhpfa \
  --configs n64s3_nobal,n64s3_bal,m64n64s2_x1_r128,m64n64s3_x1 --out "$OUT" 2>&1 | grep -v "^$" | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
