#!/bin/bash
# Session 34 run 7: evidence session 33 left out for the Hopper paged builds with a window and / or soft-cap:
# counters across the dudect classes and repeats (varlen_counters.py --page: mixed lengths, D=128 window 1023 pages of
# 256, D=256 window 1023 + soft-cap 50 pages of 64), then dudect on them (paged_leak.py --window-softcap).
#   bash scripts/session34_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 scripts/varlen_counters.py --page 256 --d 128 --causal --window 1023,0 --out "$OUT/c128" 2>&1 | tail -2
timeout 200 python3 scripts/varlen_counters.py --page 64 --d 256 --causal --window 1023,0 --softcap 50 --out "$OUT/c256" \
  2>&1 | tail -2
echo "counters $(( $(date +%s) - t0 )) s"
timeout 250 python3 scripts/paged_leak.py --window-softcap --samples 1500 --out "$OUT" 2>&1 | tail -15
for d in $OUT/c128 $OUT/c256; do for f in $d/*; do mv "$f" "$d/$(basename "$f" | tr ',' '_')"; done; done
echo "elapsed $(( $(date +%s) - t0 )) s"
