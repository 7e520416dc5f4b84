#!/bin/bash
# Session 34 run 9: evidence for the portable kernel's MUFU.TANH soft-cap: counters across the dudect classes and
# repeats at D=64 (mixed lengths, causal, cap 30: the portable kernel), dudect through window_bench.py's leak test (its
# D=128 window + cap case and the new D=64 cap case run the portable soft-capping builds) and paged_leak.py --decode
# --pipelined (grouped paged decode steps with a soft-cap).
#   bash scripts/session34_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 scripts/varlen_counters.py --d 64 --causal --softcap 30 --out "$OUT/c64" 2>&1 | tail -2
echo "counters $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/window_bench.py --leak-samples 1000 --cases none --out "$OUT/wb" 2>&1 | tail -12
timeout 150 python3 scripts/paged_leak.py --decode --pipelined --samples 1000 --out "$OUT" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
