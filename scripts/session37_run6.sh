#!/bin/bash
# Session 37 call 6: balanced row halves on causal units (sm90_fwd BALANCE): correctness of the builds (with 7
# programs: many units each) and speed against the same builds without it, D=128 (n64s3) and D=256 (n64s2), plus the
# GPU tests of the kvcache graph route.
#   bash scripts/session37_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/ab_sm90.py --cases "" --configs n64s3_bal,n64s3_bal_p7,n64s2_bal,n64s2_bal_p7 \
  --out "$OUT/check" 2>&1 | grep -v "^$" | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider -k "graph_takes" 2>&1 | tail -2
timeout 360 python3 scripts/ab_sm90.py --cases 128:512,128:1024,128:2048,256:512,256:1024,256:4096,256:16384 \
  --no-correctness --rounds 11 --reference dhpfa --configs n64s3_nobal,n64s3_bal,n64s2_nobal,n64s2_bal \
  --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
