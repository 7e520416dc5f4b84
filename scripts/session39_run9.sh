#!/bin/bash
# Session 39 call 9: causal D=256 with the second consumer's O staged in its last block's V slot (sm90_fwd V_STAGE;
# ab_sm90 n64s2_vs): correctness against float64 (odd shapes, causal offsets, 7 programs), then graph-replay A/B against
# n64s2 (the API's causal build) and cuDNN.   bash scripts/session39_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 60 python3 scripts/precompile_ab.py --configs n64s2_vs,n64s2_vs_p7,n64s2 > "$OUT/pre.log" 2>&1
echo "== precompile rc $? $(tail -1 "$OUT/pre.log")"
timeout 60 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs n64s2_vs,n64s2_vs_p7 --out "$OUT/check" \
  > "$OUT/check.log" 2>&1
echo "== check rc $?"; grep -E "FAIL|correctness:" "$OUT/check.log" | tail -6
timeout 90 python3 scripts/ab_sm90.py --rounds 7 --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,256:16384 --configs n64s2,n64s2_vs --out "$OUT/ab" > "$OUT/ab.log" 2>&1
echo "== ab rc $?"; grep -v "^$" "$OUT/ab.log" | grep causal | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
