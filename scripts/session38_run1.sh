#!/bin/bash
# Session 38 call 1: where the two-consumer persistent builds spend their cycles (the timeline build, sm90_fwd TRACE:
# scripts/trace_timeline.py) on the short causal cells below cuDNN (D=128 / 256 causal 512) and, for the steady state,
# D=128 causal 2K and non-causal 16K; and which kernels cuDNN runs there (scripts/kernel_names.py).
#   bash scripts/session38_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for c in "128:32:16:512:causal n64s3_bal" "256:32:16:512:causal n64s2" "128:8:16:2048:causal n64s3_bal" \
         "128:1:16:16384 n128s2" "128:32:16:512 n128s2"; do
  set -- $c
  timeout 240 python3 scripts/trace_timeline.py --case "$1" --config "$2" --out "$OUT" > "$OUT/trace_$2_${1//:/_}.log" 2>&1
  echo "== $c rc $?"; head -c 2500 "$OUT/trace_$2_${1//:/_}.log" | grep -v "^ *c1_"
done
[ -n "$NAMES" ] && timeout 120 python3 scripts/kernel_names.py --cases 128:32:16:512:causal,256:32:16:512:causal,128:1:16:16384 \
  --out "$OUT" > "$OUT/kernel_names.log" 2>&1; echo "== names rc $?"; cut -c1-400 "$OUT/kernel_names.log"
echo "elapsed $(( $(date +%s) - t0 )) s"
