#!/bin/bash
# Session 39 call 8: timelines of D=256 causal 512 (B=32, H=8) with O staged in Q's tile (n64s2, the API's causal build)
# and with O stored from registers (n64s2_or: Q released after the last QK^T), where the register store lost (call 3:
# x0.96): where each consumer's cycles go.   bash scripts/session39_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for c in n64s2 n64s2_or; do
  timeout 100 python3 scripts/trace_timeline.py --case 256:32:8:512:causal --config $c --rounds 5 --out "$OUT/$c" \
    > "$OUT/$c.log" 2>&1
  echo "== $c rc $? $(( $(date +%s) - t0 )) s"; grep -v "^$" "$OUT/$c.log" | tail -22
done
