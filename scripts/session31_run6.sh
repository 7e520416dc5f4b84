#!/bin/bash
# Session 31 run 6: the soft-capping builds with MUFU.TANH shipped (SOFTCAP_TANH_MUFU) and the soft-cap rule dropped:
# the window / soft-cap GPU tests, dudect through the API (D=256 window 1023 cap 50; D=128 window 1023 cap 30),
# counters (D=128 causal window 1023 cap 30), and the D=128 local soft-capping build's loop forms with MUFU.TANH
# (window_bench --ab-merged 0: three loops beside the shipped one-loop form) on the soft-capped cases.
#   bash scripts/session31_run6.sh   (device tool: carry [".whl"]; writes under $OUT)
# Ran at e25b015: window_bench's --ab-* options and the kernel switches they set were removed afterwards.
. "$(dirname "$0")/device_prelude.sh"
timeout 100 python3 scripts/precompile.py --jobs 16 --match sm90_varlen 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k "sm90" -o cache_dir=/tmp/pc -rf \
    > "$OUT/tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -3 "$OUT/tests.log"
timeout 150 python3 scripts/window_bench.py --out "$OUT/leak" --leak-samples 1000 --cases none 2>&1 | tail -10
echo "== counters"; timeout 150 python3 scripts/varlen_counters.py --out "$OUT/counters" --d 128 --causal \
    --window 1023,0 --softcap 30 2>&1 | tail -3
timeout 240 python3 scripts/window_bench.py --out "$OUT/window" --rounds 5 --ab-merged 0 --cases cap,gemma2 2>&1 \
    | tail -10
echo "done $(( $(date +%s) - t0 )) s"
