#!/bin/bash
# Session 39 call 2: O stored from registers (sm90_fwd O_REG; ab_sm90 *_or): correctness against float64 on odd shapes
# (GQA, causal offsets, 7 programs), then graph-replay A/B beside the API (dhpfa) and cuDNN at D=256 512-16K and D=128
# causal 512.   bash scripts/session39_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
CF=n64s2_bal_or,n64s2_bal_or_p7,n64s2_or,n32s4_bal_or,n64s3_bal_or,n64s3_bal_or_p7,n64s4_bal_or
timeout 120 python3 scripts/precompile_ab.py --configs $CF,n64s2,n64s2_bal,n64s3_bal > "$OUT/pre.log" 2>&1
echo "== precompile rc $? $(tail -1 "$OUT/pre.log")"
timeout 150 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs $CF --out "$OUT/check" > "$OUT/check.log" 2>&1
echo "== check rc $?"; grep -E "FAIL|correctness:" "$OUT/check.log" | tail -12
timeout 200 python3 scripts/ab_sm90.py --rounds 11 --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,256:16384 --configs n64s2,n64s2_or,n64s2_bal_or,n32s4_bal_or \
  --out "$OUT/d256" > "$OUT/d256.log" 2>&1
echo "== d256 rc $?"; grep -v "^$" "$OUT/d256.log" | grep -v correctness | tail -8
timeout 100 python3 scripts/ab_sm90.py --rounds 11 --no-correctness --reference dhpfa \
  --cases 128:512,128:1024 --configs n64s3_bal,n64s3_bal_or,n64s4_bal_or \
  --out "$OUT/d128" > "$OUT/d128.log" 2>&1
echo "== d128 rc $?"; grep -v "^$" "$OUT/d128.log" | grep -v correctness | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
