#!/bin/bash
# Session 36 call 10: split parts' full blocks unmasked (triton_fwd.VARLEN_SPLIT_UNMASKED) against every block masked,
# decode steps, full and causal builds (decode_switch_ab.py).
#   bash scripts/session36_run10.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for c in "" "--causal"; do
  echo "== $c"
  timeout 200 python3 scripts/decode_switch_ab.py --switch dhpfa.kernels.triton_fwd.VARLEN_SPLIT_UNMASKED \
    --values False,True --rounds 7 --out "$OUT" $c 2>&1 | tail -18
done
echo "elapsed $(( $(date +%s) - t0 )) s"
