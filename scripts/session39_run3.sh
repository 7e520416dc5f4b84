#!/bin/bash
# Session 39 call 3: O stored from registers in 16-byte stores (O_REG 2: a layout conversion within each warp) or 4-byte
# ones (O_REG 1; n128s3_or, whose shared memory has no room for 2's scratch): correctness against float64, then
# graph-replay / eager A/B beside the API (dhpfa) and cuDNN at D=256 512-16K and D=128 512-16K.
#   bash scripts/session39_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
CF=n64s2_bal_or,n64s2_bal_or_p7,n64s2_or,n64s3_bal_or,n64s3_bal_or_p7,n128s2_or,n128s3_or,n128s3_or_p7
timeout 120 python3 scripts/precompile_ab.py --configs $CF,n64s2,n64s3_bal,n128s2 > "$OUT/pre.log" 2>&1
echo "== precompile rc $? $(tail -1 "$OUT/pre.log")"
timeout 150 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs $CF --out "$OUT/check" > "$OUT/check.log" 2>&1
echo "== check rc $?"; grep -E "FAIL|correctness:" "$OUT/check.log" | tail -12
timeout 170 python3 scripts/ab_sm90.py --rounds 11 --no-correctness --reference dhpfa \
  --cases 256:512,256:2048,256:4096,256:16384 --configs n64s2,n64s2_or,n64s2_bal_or \
  --out "$OUT/d256" > "$OUT/d256.log" 2>&1
echo "== d256 rc $?"; grep -v "^$" "$OUT/d256.log" | grep -v correctness | tail -8
timeout 60 python3 scripts/ab_sm90.py --rounds 11 --no-correctness --reference dhpfa \
  --cases 128:512 --configs n64s3_bal,n64s3_bal_or --out "$OUT/d128s" > "$OUT/d128s.log" 2>&1
echo "== d128 short rc $?"; grep -v "^$" "$OUT/d128s.log" | grep -v correctness | tail -2
timeout 120 python3 scripts/ab_sm90.py --rounds 11 --no-correctness --reference dhpfa \
  --cases 128:4096,128:16384 --configs n128s2,n128s2_or,n128s3_or --out "$OUT/d128" > "$OUT/d128.log" 2>&1
echo "== d128 rc $?"; grep -v "^$" "$OUT/d128.log" | grep -v correctness | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
