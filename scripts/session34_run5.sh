#!/bin/bash
# Session 34 run 5 (after run 4, on its warm machine: build/tcache): paged_gather_bench.py (decode steps with a window /
# soft-cap now on the grouped paged builds), counters of paged decode steps with a window and soft-cap across the
# dudect classes and repeats (varlen_counters.py --decode --page 256), and dudect on them (paged_leak.py --decode).
#   bash scripts/session34_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 120 python3 scripts/paged_gather_bench.py --rounds 7 --out "$OUT" 2>&1 | tail -7
echo "bench $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/varlen_counters.py --decode --page 256 --d 128 --causal --window 1023,0 \
  --out "$OUT/counters_d128_w" 2>&1 | tail -14
timeout 150 python3 scripts/varlen_counters.py --decode --page 256 --d 256 --causal --window 1023,0 --softcap 50 \
  --out "$OUT/counters_d256_wc" 2>&1 | tail -14
echo "counters $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/paged_leak.py --decode --samples 1000 --out "$OUT" 2>&1 | tail -24
echo "elapsed $(( $(date +%s) - t0 )) s"
