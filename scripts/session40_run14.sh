#!/bin/bash
# Session 40 call 14: light tile first (LIGHT_FIRST) on the D=128 causal builds past 512 (n128s2_qd at 1K-8K, n128s2
# at 16K): A/B against them.   bash scripts/session40_run14.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 50 python3 scripts/precompile_ab.py --configs n128s2,n128s2_lf,n128s2_qd,n128s2_qd_lf --dims 128 2>&1 | tail -1
timeout 150 python3 scripts/ab_sm90.py --rounds 9 --no-correctness --reference dhpfa \
  --cases 128:1024,128:4096,128:16384 --configs n128s2,n128s2_lf,n128s2_qd,n128s2_qd_lf --out "$OUT/ab" 2>&1 | grep causal
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
