#!/bin/bash
# Session 34 run 8: the portable kernel's soft-cap by MUFU.TANH (triton_fwd SOFTCAP=2): precompile the soft-capping
# variants, their GPU tests (test_varlen: soft-cap / window / grouped-heads tests, the new portable parametrization of
# test_gpu_windows_and_softcap_against_float64, fp16 and bf16), then scripts/softcap_tanh_ab.py (exp form against
# MUFU.TANH, graph replay, interleaved).
#   bash scripts/session34_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 scripts/precompile.py --jobs 16 --match softcap 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py -k "softcap or cap or grouped_heads" \
  -p no:cacheprovider -rf > "$OUT/tests8.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests8.log" | tail -1
grep "^FAILED" "$OUT/tests8.log" | head -20
timeout 150 python3 scripts/softcap_tanh_ab.py --rounds 9 --out "$OUT" 2>&1 | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
