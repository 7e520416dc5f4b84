#!/bin/bash
# Session 40 call 15: dudect on the shipped causal D=256 build with LIGHT_FIRST (m128n64w4s2x2ppvsohlf) at
# (16,8,1024,256) causal.   bash scripts/session40_run15.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 40 python3 scripts/precompile.py --match ppvsohlf 2>&1 | tail -1
timeout 100 python3 -m dhpfa leak --shape 16,8,1024,256 --causal --samples 1000 --out "$OUT/leak" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
