#!/bin/bash
# Session 33 run 14: paged calls with a window on the Hopper paged builds from the long-key thresholds: the paged and
# window GPU tests, then scripts/paged_gather_bench.py.
#   bash scripts/session33_run14.sh   (device tool: carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 300 python3 -m pytest -q -m gpu -n 6 -p no:cacheprovider tests/test_varlen.py -k "paged or window or kvcache" \
  -rf 2>&1 | tail -6
echo "tests done at $(( $(date +%s) - t0 )) s"
timeout 60 python3 scripts/paged_gather_bench.py --rounds 7 --out "$OUT" 2>&1 | tail -7
echo "elapsed $(( $(date +%s) - t0 )) s"
