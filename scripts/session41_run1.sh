#!/bin/bash
# Session 41 call 1: light tile first on the D=128 causal two-Q-buffer build (n128s2_qd_lf) against n128s2_qd and
# n128s2 at causal 1K-16K (15 rounds), the long-context cells (B=1, 16K / 32K / 128K, 7 rounds), correctness of the
# new build, and ncu DRAM bytes at causal 4K / 16K.   bash scripts/session41_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
C=n128s2,n128s2_qd,n128s2_qd_lf
{
timeout 90 python3 scripts/precompile_ab.py --configs $C,n128s2_lf --dims 128 2>&1 | tail -1
timeout 90 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs n128s2_qd_lf,n128s2_lf --out "$OUT/check" 2>&1 \
  | grep -v "^$" | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/ab_sm90.py --rounds 15 --no-correctness --reference dhpfa --causal only \
  --cases 128:1024,128:2048,128:4096,128:8192,128:16384 --configs $C --out "$OUT/ab" 2>&1 | grep causal
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/ab_sm90.py --rounds 7 --no-correctness --reference dhpfa \
  --cases 128:16384,128:32768,128:131072 --configs $C,n128s2_lf --out "$OUT/long" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
for pair in "n128s2_qd 4,16,4096,128,c" "n128s2_qd_lf 4,16,4096,128,c" "n128s2 1,16,16384,128,c" \
            "n128s2_qd 1,16,16384,128,c" "n128s2_qd_lf 1,16,16384,128,c"; do
  set -- $pair
  timeout 60 ncu --clock-control none --nvtx --nvtx-include "attn/" -c 1 --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct \
    python3 scripts/ncu_build.py --config $1 --shape $2 2>/dev/null | grep -E "dram__|gpu__time|lts__" \
    | awk -F'","' -v c="$1 $2" '{print c, $(NF-2), $(NF-1), $NF}'
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
