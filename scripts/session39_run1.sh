#!/bin/bash
# Session 39 call 1: the independent-consumer build (sm90_fwd INDEP; ab_sm90 ind_*): correctness against float64 on odd
# shapes (GQA, causal offsets, 7 programs), then graph-replay A/B beside the API (dhpfa) and cuDNN at the short cells
# and 16K. Needs docs/experiments/session39_indep.diff applied (the build was not kept).
#   bash scripts/session39_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
C128=ind_n64s2,ind_n64s2_p7,ind_n64s3,ind_n64s2_ds,ind_n64s2_ov
C64=ind_n64s2,ind_n64s3,ind_n128s2,ind_n128s2_p7
C256=ind_n32s2,ind_n32s2_p7
timeout 150 python3 scripts/precompile_ab.py --configs ind_n64s2,ind_n64s2_p7,ind_n64s3,ind_n64s2_ds,ind_n64s2_ov,ind_n128s2,ind_n128s2_p7,ind_n32s2,ind_n32s2_p7 > "$OUT/pre.log" 2>&1
echo "== precompile rc $? $(tail -1 "$OUT/pre.log")"
# correctness of every configuration at its dims (ab_sm90's check: 3 odd shapes x causal x bf16/fp16), no timing
timeout 150 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs $C128,ind_n128s2,ind_n128s2_p7,$C256 \
  --out "$OUT/check" > "$OUT/check.log" 2>&1
echo "== check rc $?"; grep -E "FAIL|correctness:" "$OUT/check.log" | tail -12
timeout 170 python3 scripts/ab_sm90.py --rounds 9 --no-correctness --reference dhpfa \
  --cases 128:512,128:1024,128:16384 --configs n64s3_bal,ind_n64s2,ind_n64s3,ind_n64s2_ds,ind_n64s2_ov \
  --out "$OUT/d128" > "$OUT/d128.log" 2>&1
echo "== d128 rc $?"; grep -v "^$" "$OUT/d128.log" | grep -v correctness | tail -6
timeout 100 python3 scripts/ab_sm90.py --rounds 9 --no-correctness --reference dhpfa \
  --cases 64:512,256:512 --configs ind_n64s2,ind_n64s3,ind_n128s2,ind_n32s2 \
  --out "$OUT/d64_256" > "$OUT/d64_256.log" 2>&1
echo "== d64/256 rc $?"; grep -v "^$" "$OUT/d64_256.log" | grep -v correctness | tail -4
tar -C "$OUT" -czf "$OUT/all.tgz" . 2>/dev/null
echo "elapsed $(( $(date +%s) - t0 )) s"
