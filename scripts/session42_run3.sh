#!/bin/bash
# Session 42 call 3: WIDE steps at D=64 (two consumers; registers fit there: no C7512 offline, 72 bytes of spills outside
# the step loops), correctness (wide_check.py --d 64), then A/B against the API (the three-consumer build from 4K) and
# the two-consumer builds without WIDE: graph replay at 2K, eager 4K / 16K, non-causal.
#   git apply docs/experiments/session42_wide.diff; bash scripts/session42_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
C=n128s2,n128s3,n128s3_w,n128s3_w_p7,m192n128s2_x3_nopp
{
timeout 150 python3 scripts/precompile_ab.py --configs $C --dims 64 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/wide_check.py --d 64 2>&1 | tee "$OUT/wide_check.log" | grep -v "^OK"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/ab_sm90.py --rounds 11 --no-correctness --reference dhpfa \
  --configs n128s2,n128s3,n128s3_w,m192n128s2_x3_nopp --cases 64:2048,64:4096,64:16384 --causal none --out "$OUT/ab" \
  2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
