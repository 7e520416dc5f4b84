#!/bin/bash
# Session 42 call 9: issue 5's long-context and sustained-clock figures this session: the API at B=1, H=16, D=128 at 16K,
# 32K and 128K (eager, the same rounds), then the 16K cells at D=64 / 128 / 256 with 250 ms batches (sustained clocks),
# beside cuDNN; and the stall reasons (ncu's warp-state samples by reason, whole kernel) of the one-consumer build at
# (1,4,2048,64) and (1,8,512,64) (call 7 gave them by instruction only).
#   bash scripts/session42_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/ab_sm90.py --rounds 7 --no-correctness --reference dhpfa --configs n128s2 \
  --cases 128:16384,128:32768,128:131072 --out "$OUT/long" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/ab_sm90.py --rounds 7 --no-correctness --reference dhpfa --batch-ms 250 --configs n128s2 \
  --cases 128:16384,256:16384,64:16384 --out "$OUT/sustained" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
for sh in 1,4,2048,64 1,8,512,64; do
  echo "== stall reasons $sh"
  timeout 90 ncu --clock-control none --nvtx --nvtx-include "attn/" -c 1 --csv \
    --metrics "regex:smsp__pcsamp_warps_issue_stalled_.*,smsp__pcsamp_sample_count" \
    python3 scripts/ncu_build.py --config m64n128s2_x1_ov --shape $sh 2>/dev/null | grep -E '^"[0-9]' \
    | awk -F'","' '{print $(NF-2), $NF}' | tr -d '"' | awk '{v=$2; gsub(",", "", v); if (v + 0 > 0) print v, $1}' \
    | sort -rn
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
