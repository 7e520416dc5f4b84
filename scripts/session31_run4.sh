#!/bin/bash
# Session 31 run 4: evidence for the Hopper varlen kernel's local and soft-capping builds: the isolation and window tests
# (pytest-xdist), dudect through the API (D=256 window 1023 + softcap 50; D=128 window 255), hardware counters across
# input classes and repeats (varlen_counters.py: D=256 causal window 1023 softcap 50; D=128 causal window 255).
#   bash scripts/session31_run4.sh   (device tool: carry [".whl"]; writes under $OUT)
. "$(dirname "$0")/device_prelude.sh"
timeout 100 python3 scripts/precompile.py --jobs 16 --match sm90_varlen 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k "sm90_varlen_keeps or window_softcap" \
    -o cache_dir=/tmp/pc -rf > "$OUT/tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -3 "$OUT/tests.log"
timeout 150 python3 scripts/window_bench.py --out "$OUT/window" --leak-samples 1000 --cases none 2>&1 | tail -12
for args in "--d 256 --causal --window 1023,0 --softcap 50" "--d 128 --causal --window 255,0"; do
  tag=$(echo $args | tr -d ' -,'); echo "== counters $args"
  timeout 150 python3 scripts/varlen_counters.py --out "$OUT/counters_$tag" $args 2>&1 | tail -8
done
echo "done $(( $(date +%s) - t0 )) s"
