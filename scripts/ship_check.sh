#!/bin/bash
# Checks of a causal D=256 / 192 build as shipped (session 40): its variants (names containing LABEL) precompiled, their
# GPU tests with the API's odd shapes, repeated calls and bitwise checks, CHECK's correctness where set, an A/B of
# CONFIGS at CASES, counters at (16,8,1024,256) causal, and dudect there where LEAK=1.
#   LABEL=ppvsoh CONFIGS=n64s2_vs,n64s2_vsoh CASES=256:512,... [CHECK=cfg_p7] [LEAK=1] bash scripts/ship_check.sh
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile.py --match $LABEL 2>&1 | tail -1
timeout 60 python3 scripts/precompile_ab.py --configs $CONFIGS${CHECK:+,$CHECK} 2>&1 | tail -1
timeout 120 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py tests/test_sm90_fwd.py \
  -k "$LABEL or head_dims_odd_shapes or repeated_calls or bitwise" -p no:cacheprovider -rf 2>&1 | tail -3
[ -n "$CHECK" ] && timeout 60 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs $CHECK --out "$OUT/check" 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/ab_sm90.py --rounds 15 --no-correctness --reference dhpfa --cases $CASES \
  --configs $CONFIGS --out "$OUT/ab" 2>&1 | grep causal
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 60 python3 -m dhpfa counters --shape 16,8,1024,256 --causal --out "$OUT/counters" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
if [ "${LEAK:-0}" = 1 ]; then
  timeout 100 python3 -m dhpfa leak --shape 16,8,1024,256 --causal --samples 1000 --out "$OUT/leak" 2>&1 | tail -3
  echo "elapsed $(( $(date +%s) - t0 )) s"
fi
} 2>&1 | tee "$OUT/run.log"
