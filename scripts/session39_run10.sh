#!/bin/bash
# Session 39 call 10: the causal D=256 / 192 builds with the second consumer's O staged in a V slot, shipped (variants
# SM90_GLUON_CAUSAL, SM90_GLUON_SHORT[(256, True)]: m128n64w4s2x2ppvs): their GPU tests, the API against n64s2 (the
# build causal calls ran before) and cuDNN, counters at (16,8,1024,256) causal.
#   bash scripts/session39_run10.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile.py --match ppvs 2>&1 | tail -1
timeout 90 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py tests/test_sm90_fwd.py \
  -k "ppvs or head_dims_odd_shapes" -p no:cacheprovider -rf 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 scripts/ab_sm90.py --rounds 9 --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,256:4096 --configs n64s2 --out "$OUT/ab" 2>&1 | grep causal
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 50 python3 -m dhpfa counters --shape 16,8,1024,256 --causal --out "$OUT/counters" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
