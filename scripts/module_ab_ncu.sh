#!/bin/bash
# A copy of sm90_fwd (src/dhpfa/kernels/$MOD.py, carried) against the tree's (session 40): correctness of both on
# n64s2_vsoh and n64s3_bal, ncu DRAM bytes, time and L2 hit rate of one launch of each at SHAPES ("config B,H,S,D,c"
# pairs), and an A/B at CASES.
#   MOD=_ab_lf SHAPES="n64s2_vsoh 32,8,512,256,c;n64s3_bal 32,16,512,128,c" CASES=256:512,... bash scripts/module_ab_ncu.sh
source "$(dirname "$0")/device_prelude.sh"
M="--module ${MOD#_ab_}=src/dhpfa/kernels/$MOD.py"
{
timeout 60 python3 scripts/precompile_ab.py --configs n64s2_vsoh,n64s3_bal,n64s2_or --modules sm90_fwd,$MOD 2>&1 | tail -1
timeout 120 python3 scripts/ab_sm90.py --rounds 1 --cases "" --check-all $M --configs n64s2_vsoh,n64s3_bal \
  --out "$OUT/check" 2>&1 | grep -v "^$" | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
IFS=';' read -ra pairs <<< "$SHAPES"
for cfg in "${pairs[@]}"; do
  set -- $cfg
  for mod in sm90_fwd $MOD; do
    timeout 60 ncu --clock-control none --nvtx --nvtx-include "attn/" -c 1 --csv \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct \
      python3 scripts/ncu_build.py --config $1 --shape $2 --module $mod 2>/dev/null | grep -E "dram__|gpu__time|lts__" \
      | awk -F'","' -v c="$1 $mod" '{print c, $(NF-2), $(NF-1), $NF}'
  done
done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/ab_sm90.py --rounds 15 --no-correctness --reference dhpfa $M \
  --cases $CASES --configs n64s2_vsoh,n64s3_bal,n64s2_or --out "$OUT/ab" 2>&1 | grep -v "^$" | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
