#!/bin/bash
# Session 40 call 1: dudect on the causal D=256 V_STAGE build (shipped in session 39, not run there), and timelines of
# D=256 causal 512 (B=32, H=8) with V_STAGE (n64s2_vs, the API's build now; TRACE now allowed with V_STAGE) beside
# n64s2 (O staged in Q's tile): what is left per tile.   bash scripts/session40_run1.sh  (carry [".whl"]; writes $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile.py --match ppvs 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa leak --shape 16,8,1024,256 --causal --samples 1000 --out "$OUT/leak" 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
for c in n64s2_vs n64s2; do
  timeout 100 python3 scripts/trace_timeline.py --case 256:32:8:512:causal --config $c --rounds 5 --out "$OUT/$c" \
    > "$OUT/$c.log" 2>&1
  echo "== $c rc $? $(( $(date +%s) - t0 )) s"; grep -v "^$" "$OUT/$c.log" | tail -22
done
} 2>&1 | tee "$OUT/run.log"
