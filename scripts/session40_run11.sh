#!/bin/bash
# Session 40 call 11: does the schedule cost DRAM reads? (16,8,1024,256) causal read 251 MB from DRAM against the 201 MB
# of Q, K and V (call 8). A copy of sm90_fwd (src/dhpfa/kernels/_ab_pairs.py, carried) gives each program consecutive
# pairs of units (units 2k, 2k + 1: the same head's, so its K/V is re-read by the same SM) instead of units p, p + P:
# correctness, A/B at the short cells, and ncu DRAM bytes of both at (32,8,512,256) and (32,16,512,128) causal.
#   bash scripts/session40_run11.sh   (carry [".whl", the copy]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
M="--module pairs=src/dhpfa/kernels/_ab_pairs.py"
{
timeout 60 python3 scripts/precompile_ab.py --configs n64s2_vsoh,n64s3_bal,n64s2_or --modules sm90_fwd,_ab_pairs 2>&1 | tail -1
timeout 120 python3 scripts/ab_sm90.py --rounds 1 --cases "" --check-all $M --configs n64s2_vsoh,n64s3_bal \
  --out "$OUT/check" 2>&1 | grep -v "^$" | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
for cfg in "n64s2_vsoh 32,8,512,256,c" "n64s3_bal 32,16,512,128,c"; do
  set -- $cfg
  for mod in sm90_fwd _ab_pairs; do
    timeout 60 ncu --clock-control none --nvtx --nvtx-include "attn/" -c 1 --csv \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct \
      python3 scripts/ncu_build.py --config $1 --shape $2 --module $mod 2>/dev/null | grep -E "dram__|gpu__time|lts__" \
      | awk -F'","' -v c="$1 $mod" '{print c, $(NF-2), $(NF-1), $NF}'
  done
done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/ab_sm90.py --rounds 15 --no-correctness --reference dhpfa $M \
  --cases 256:512,256:1024,128:512,128:1024 --configs n64s2_vsoh,n64s3_bal,n64s2_or --out "$OUT/ab" 2>&1 | grep -v "^$" | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
