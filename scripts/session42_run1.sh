#!/bin/bash
# Session 42 call 1: WIDE steps (192 keys: a 128-key and a 64-key GEMM, one softmax; sm90_fwd WIDE) at D=128 non-causal:
# correctness (scripts/wide_check.py), then A/B against n128s2 (the API's 16K build) and n128s3 (the same ring without
# WIDE): graph replay to 2K, eager 4K / 16K.
#   git apply docs/experiments/session42_wide.diff; bash scripts/session42_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
C=n128s2,n128s3,n128s3_w,n128s3_w_p7
{
timeout 150 python3 scripts/precompile_ab.py --configs $C --dims 128 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/wide_check.py 2>&1 | tee "$OUT/wide_check.log" | grep -v "^OK"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/ab_sm90.py --rounds 9 --no-correctness --reference dhpfa --configs n128s2,n128s3,n128s3_w \
  --cases 128:1024,128:2048,128:4096,128:16384 --causal none --out "$OUT/ab" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
