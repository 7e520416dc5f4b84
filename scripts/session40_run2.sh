#!/bin/bash
# Session 40 call 2: causal D=256 with consumer 0's O stored from registers and consumer 1's staged in its V slot
# (n64s2_vsor: V_STAGE + O_REG), so Q is released after both consumers' last QK^T: correctness (float64, odd shapes,
# 7-program schedule), its timeline at causal 512 (B=32, H=8), and an A/B against the API (n64s2_vs causal, n64s2_or
# not) and n64s2_vs.   bash scripts/session40_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile_ab.py --configs n64s2_vs,n64s2_vsor,n64s2_vsor_p7 --dims 256 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs n64s2_vsor,n64s2_vsor_p7 --out "$OUT/check" \
  2>&1 | grep -v "^$" | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 scripts/trace_timeline.py --case 256:32:8:512:causal --config n64s2_vsor --rounds 5 \
  --out "$OUT/n64s2_vsor" > "$OUT/n64s2_vsor.log" 2>&1
echo "== timeline rc $? $(( $(date +%s) - t0 )) s"; grep -v "^$" "$OUT/n64s2_vsor.log" | head -24
timeout 150 python3 scripts/ab_sm90.py --rounds 11 --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,256:4096 --configs n64s2_vs,n64s2_vsor --out "$OUT/ab" 2>&1 | grep -v "^$" | tail -30
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
