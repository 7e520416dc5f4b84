#!/bin/bash
# Session 40 call 6: ablations at the causal 512 cells (and D=128 512 non-causal), to see what the memory stream costs:
# copies of sm90_fwd (src/dhpfa/kernels/_ab_abl{1,2,4,7}.py, carried; made by the sed-like edits in the perf log) whose
# O store (1), Q loads (2) or K/V loads (4) go to one fixed tile's addresses (L2-resident: no DRAM traffic), all three
# in 7. Outputs are garbage by design (no correctness pass); the SM-side work is the same.
#   bash scripts/session40_run6.sh   (carry [".whl", the four copies]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
M=""; for a in 1 2 4 7; do M="$M --module abl$a=src/dhpfa/kernels/_ab_abl$a.py"; done
{
timeout 120 python3 scripts/precompile_ab.py --configs n64s3_bal,n64s2_vs,n128s2_qd_ds --dims 128,256 \
  --modules sm90_fwd,_ab_abl1,_ab_abl2,_ab_abl4,_ab_abl7 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/ab_sm90.py --rounds 9 --no-correctness --reference dhpfa $M \
  --cases 128:512,256:512 --configs n64s3_bal,n64s2_vs,n128s2_qd_ds --out "$OUT/ab" 2>&1 | grep -v "^$" | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
