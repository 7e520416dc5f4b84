#!/bin/bash
# Session 37 call 14: the few-row tiles' GPU test with the per-key page form (pages of 16) added.
#   bash scripts/session37_run14.sh   (carry [".whl"])
source "$(dirname "$0")/device_prelude.sh"
timeout 300 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider -n 4 -k "few_row" -rf 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
