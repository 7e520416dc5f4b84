#!/bin/bash
# Session 68 call 4: call 3's one differing repeat of the stream build (test_stream_launcher_matches_float64
# [bf16-17-64-8-2050-64-264]): 400 repeats of that launch alone, then 4 processes at once (the tests ran 8 workers on the
# GPU), then the decode tests twice (pytest -n 8); each differing run's elements, pairs and error.
#   bash scripts/session68_run4.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== alone ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/stream_repeat68.py --reps 400 --out "$OUT/alone.json" 2>&1 | tail -8
echo "== 4 at once ($(( $(date +%s) - t0 )) s)"
for i in 1 2 3 4; do
  timeout 150 python3 scripts/stream_repeat68.py --reps 400 --seed $((2378 + i)) --out "$OUT/par$i.json" > "$OUT/par$i.log" 2>&1 &
done
wait
for i in 1 2 3 4; do tail -4 "$OUT/par$i.log"; done
for r in 1 2; do decode_tests; done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
