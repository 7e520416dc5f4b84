#!/bin/bash
# Session 33 run 10: paged caches with a window or soft-cap (api._gather_pages): the new GPU test and the paged and
# kvcache GPU tests beside it (pytest-xdist, 6 workers).
#   bash scripts/session33_run10.sh   (device tool: carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 400 python3 -m pytest -q -m gpu -n 6 -p no:cacheprovider tests/test_varlen.py -k "paged or kvcache" -rf 2>&1 \
  | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
