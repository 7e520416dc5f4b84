#!/bin/bash
# Session 41 call 2: the peeled first key block unmasked where every row sees it in full (sm90_fwd FULL_FIRST, on in the
# dense non-packed builds) against HEAD's sm90_fwd (src/dhpfa/kernels/_ab_head.py, carried): correctness of the tree's
# builds, then graph replay at the short cells (15 rounds) and eager 16K (9 rounds), the API's builds of each cell.
#   bash scripts/session41_run2.sh   (carry [".whl", "src/dhpfa/kernels/_ab_head.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
C=n64s3_bal,n128s2_qd_ds,n128s2_qd,n128s2,n64s2_or,n64s2_vsohlf,m192n128s2_x3_nopp
M="--module head=src/dhpfa/kernels/_ab_head.py"
{
timeout 120 python3 scripts/precompile_ab.py --configs $C --modules sm90_fwd,_ab_head 2>&1 | tail -1
timeout 120 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs $C --out "$OUT/check" 2>&1 | grep -v "^$" | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/ab_sm90.py --rounds 15 --no-correctness $M --configs $C \
  --cases 128:512,128:1024,256:512,64:2048,128:2048 --out "$OUT/ab" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/ab_sm90.py --rounds 9 --no-correctness $M --configs n128s2,n64s2_or,n64s2_vsohlf,m192n128s2_x3_nopp \
  --cases 128:16384,256:16384,64:16384 --out "$OUT/long" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
