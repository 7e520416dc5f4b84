#!/bin/bash
# Session 31 run 9: the window / soft-cap bench on an H100 (the shipped builds: MUFU.TANH, three loops), for the
# ratios on the other Hopper part.
#   bash scripts/session31_run9.sh   (device tool: kind nvidia-h100-x1, carry [".whl"]; writes under $OUT)
. "$(dirname "$0")/device_prelude.sh"
timeout 100 python3 scripts/precompile.py --jobs 16 --match sm90_varlen 2>&1 | tail -1
timeout 400 python3 scripts/window_bench.py --out "$OUT/window" --rounds 5 2>&1 | tail -16
echo "done $(( $(date +%s) - t0 )) s"
