#!/bin/bash
# Session 40 call 10: the next tile's Q prefetched into L2 by the producer warp with TMA tensor prefetches (sm90_fwd
# PREFETCH_Q, experiment: one UTMAPF per Q box, issued as the next-to-last key block loads): correctness, A/Bs against the
# same builds without it at the short cells (D=256 causal: n64s2_vsoh, the API's; D=256: n64s2_or; D=128 causal:
# n64s3_bal).   bash scripts/session40_run10.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
C=n64s2_vsoh,n64s2_vsoh_pf,n64s2_or,n64s2_or_pf,n64s3_bal,n64s3_bal_pf
{
timeout 60 python3 scripts/precompile_ab.py --configs $C,n64s2_vsoh_pf_p7,n64s3_bal_pf_p7 2>&1 | tail -1
timeout 150 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs n64s2_vsoh_pf,n64s2_vsoh_pf_p7,n64s2_or_pf,n64s3_bal_pf,n64s3_bal_pf_p7 \
  --out "$OUT/check" 2>&1 | grep -v "^$" | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/ab_sm90.py --rounds 15 --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,128:512,128:1024 --configs $C --out "$OUT/ab" 2>&1 | grep -v "^$" | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
