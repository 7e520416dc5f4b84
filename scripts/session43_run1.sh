#!/bin/bash
# Session 43 call 1: four consumer warpgroups at D=64 (sm90_fwd SPLIT=4, 256-row tiles of 64-key blocks, 112 registers
# a consumer) against the shipped three-consumer build (m192n128s2_x3_nopp) and the three-consumer build on 64-key
# blocks: correctness (ab_sm90's float64 checks, odd shapes, causal, bf16 / fp16; a 7-program grid), then A/B at D=64
# 1K (graph replay), 4K and 16K (eager), causal and not.
#   git apply docs/experiments/session43_x4.diff; bash scripts/session43_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
C=m192n128s2_x3_nopp,m256n64s2_x4_nopp,m256n64s3_x4_nopp,m256n64s2_x4,m192n64s3_x3_nopp_d64
{
timeout 200 python3 scripts/precompile_ab.py --configs $C,m256n64s2_x4_nopp_p7 --dims 64 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/ab_sm90.py --rounds 1 --configs m256n64s2_x4_nopp_p7,m256n64s3_x4_nopp,m256n64s2_x4 \
  --cases 64:1024 --causal none --out "$OUT/check" 2>&1 | grep -E "FAIL|correctness"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/ab_sm90.py --rounds 9 --no-correctness --reference dhpfa --configs $C \
  --cases 64:1024,64:4096,64:16384 --out "$OUT/ab" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
