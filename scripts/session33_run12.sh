#!/bin/bash
# Session 33 run 12: the page gather limited to the window's columns: the paged and kvcache GPU tests, then
# scripts/paged_gather_bench.py again.
#   bash scripts/session33_run12.sh   (device tool: carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 300 python3 -m pytest -q -m gpu -n 6 -p no:cacheprovider tests/test_varlen.py -k "paged or kvcache" -rf 2>&1 \
  | tail -6
timeout 200 python3 scripts/paged_gather_bench.py --rounds ${ROUNDS:-7} --out "$OUT" 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
