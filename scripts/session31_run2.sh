#!/bin/bash
# Session 31 run 2: the local builds' two loop forms (three step loops, or one loop with a masked / unmasked branch:
# LOCAL_MERGED) side by side in the window / soft-cap bench.
#   bash scripts/session31_run2.sh   (device tool: carry [".whl"]; writes under $OUT)
# Ran at 741c604: window_bench's --ab-* options and the kernel switches they set were removed afterwards.
. "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 scripts/precompile.py --jobs 16 --match sm90_varlen 2>&1 | tail -1
timeout 420 python3 scripts/window_bench.py --out "$OUT/window" --rounds 5 --ab-merged 1 2>&1 | tail -16
echo "done $(( $(date +%s) - t0 )) s"
