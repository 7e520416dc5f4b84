#!/bin/bash
# Session 42 call 12: D=128 causal 512 (the cell furthest below cuDNN) with one-consumer 64x128 tiles, two CTAs an SM
# (82 KB of shared memory, 128 registers at launch, 232 for the consumer), beside the API's build and the 64x64 two-CTA
# build of session 37: correctness of the new configurations, then graph replay at causal 512 / 1K (15 rounds).
#   bash scripts/session42_run12.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
C=m64n128s1_x1_r128,m64n128s1_x1_ov_r128,m64n64s2_x1_r128
{
timeout 120 python3 scripts/precompile_ab.py --configs $C --dims 128 2>&1 | tail -1
timeout 150 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs m64n128s1_x1_r128,m64n128s1_x1_ov_r128 \
  --out "$OUT/check" 2>&1 | grep -v "^$" | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/ab_sm90.py --rounds 15 --no-correctness --reference dhpfa --causal only --configs $C \
  --cases 128:512,128:1024 --out "$OUT/ab" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
