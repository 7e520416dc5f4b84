#!/bin/bash
# Session 40 call 13: the causal D=256 / 192 builds with each unit's light tile first (LIGHT_FIRST, with O_HALF and
# V_STAGE: m128n64w4s2x2ppvsohlf), shipped: GPU tests with the API's odd shapes, repeated calls and bitwise checks; A/B
# against the build before (n64s2_vsoh) at 512-16K and D=192; counters at (16,8,1024,256) causal.
#   bash scripts/session40_run13.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile.py --match ppvsohlf 2>&1 | tail -1
timeout 60 python3 scripts/precompile_ab.py --configs n64s2_vsoh,n64s2_vsohlf,n64s2_vsohlf_p7,n64s2_vsoh_d192,n64s2_vsohlf_d192 2>&1 | tail -1
timeout 120 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py tests/test_sm90_fwd.py \
  -k "ppvsohlf or head_dims_odd_shapes or repeated_calls or bitwise" -p no:cacheprovider -rf 2>&1 | tail -3
timeout 60 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs n64s2_vsohlf_p7 --out "$OUT/check" 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/ab_sm90.py --rounds 15 --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,256:4096,256:16384,192:512,192:1024 \
  --configs n64s2_vsoh,n64s2_vsohlf,n64s2_vsoh_d192,n64s2_vsohlf_d192 --out "$OUT/ab" 2>&1 | grep causal
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 60 python3 -m dhpfa counters --shape 16,8,1024,256 --causal --out "$OUT/counters" 2>&1 | tail -2
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
