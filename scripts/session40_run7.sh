#!/bin/bash
# Session 40 call 7: causal D=256 with consumer 0's O in a 32 KB buffer of its own (TMA store, waited for only before
# the buffer's next write) and consumer 1's in its V slot (V_STAGE), so Q is released after both consumers' last QK^T
# (n64s2_vsoh): correctness, its timeline at causal 512, A/B against the API (n64s2_vs) at 512-4K.
#   bash scripts/session40_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile_ab.py --configs n64s2_vs,n64s2_vsoh,n64s2_vsoh_p7 --dims 256 2>&1 | tail -1
timeout 120 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs n64s2_vsoh,n64s2_vsoh_p7 --out "$OUT/check" \
  2>&1 | grep -v "^$" | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 scripts/trace_timeline.py --case 256:32:8:512:causal --config n64s2_vsoh --rounds 5 \
  --out "$OUT/n64s2_vsoh" > "$OUT/n64s2_vsoh.log" 2>&1
echo "== timeline rc $? $(( $(date +%s) - t0 )) s"; grep -v "^$" "$OUT/n64s2_vsoh.log" | head -24
timeout 200 python3 scripts/ab_sm90.py --rounds 15 --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,256:4096 --configs n64s2_vs,n64s2_vsoh --out "$OUT/ab" 2>&1 | grep causal
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
