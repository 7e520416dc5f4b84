#!/bin/bash
# Session 40 call 8: the causal D=256 / 192 builds with consumer 0's O in a buffer of its own (O_HALF with V_STAGE,
# m128n64w4s2x2ppvsoh), shipped in place of the V_STAGE builds: their GPU tests and the API's odd shapes, an A/B against
# the V_STAGE build at 512-16K (D=256 and 192), counters and dudect at (16,8,1024,256) causal.
#   bash scripts/session40_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile.py --match ppvsoh 2>&1 | tail -1
timeout 60 python3 scripts/precompile_ab.py --configs n64s2_vs,n64s2_vsoh,n64s2_vs_d192,n64s2_vsoh_d192 2>&1 | tail -1
timeout 120 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py tests/test_sm90_fwd.py \
  -k "ppvsoh or head_dims_odd_shapes or repeated_calls or bitwise" -p no:cacheprovider -rf 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/ab_sm90.py --rounds 15 --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,256:4096,256:16384,192:1024,192:4096 \
  --configs n64s2_vs,n64s2_vsoh,n64s2_vs_d192,n64s2_vsoh_d192 --out "$OUT/ab" 2>&1 | grep causal
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 60 python3 -m dhpfa counters --shape 16,8,1024,256 --causal --out "$OUT/counters" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m dhpfa leak --shape 16,8,1024,256 --causal --samples 1000 --out "$OUT/leak" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
