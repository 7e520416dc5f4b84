#!/bin/bash
# Session 31 run 5: the soft-capping Hopper builds with MUFU.TANH (sm90_fwd TANH_MUFU) against the exponential form:
# error against float64 (tanh_accuracy.py: both forms and the portable kernel), then speed (window_bench --ab-tanh on
# the soft-capped cases).
#   bash scripts/session31_run5.sh   (device tool: carry [".whl"]; writes under $OUT)
# Ran at 4f9d9ac: window_bench's --ab-* options and the kernel switches they set were removed afterwards.
. "$(dirname "$0")/device_prelude.sh"
timeout 100 python3 scripts/precompile.py --jobs 16 --match sm90_varlen 2>&1 | tail -1
OUT=$OUT timeout 200 python3 scripts/tanh_accuracy.py 2>&1 | tail -17
echo "accuracy $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/window_bench.py --out "$OUT/window" --rounds 5 --ab-tanh --cases cap,gemma2 2>&1 | tail -10
echo "done $(( $(date +%s) - t0 )) s"
