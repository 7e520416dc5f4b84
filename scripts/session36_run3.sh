#!/bin/bash
# Session 36 call 3: decode key splits against the shipped rule (decode_split_sweep.py), D=64 / 128 / 256.
#   bash scripts/session36_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for L in ${LENGTHS:-uniform}; do timeout ${SWEEP_LIMIT:-400} python3 scripts/decode_split_sweep.py --lengths $L --rounds ${ROUNDS:-5} --out "$OUT" ${SWEEP_ARGS} 2>&1 | tail -5; done
echo "elapsed $(( $(date +%s) - t0 )) s"
