#!/bin/bash
# Session 66 call 7 (experiment): groups of 16 query heads a key/value head on the swap decode kernels with NQ = 16
# (JIT builds, not audited) against the API's forward kernels and cuDNN (rule_check --set g16; "api_prev" is the
# patched side there).
#   [SET=g16b] bash scripts/session66_run7.sh   (call 8: SET=g16b; carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== rule_check --set ${SET:-g16} ($(( $(date +%s) - t0 )) s)"
timeout 330 python3 scripts/rule_check.py --set ${SET:-g16} --rounds 5 --out "$OUT"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
