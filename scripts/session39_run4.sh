#!/bin/bash
# Session 39 call 4: the D=256 / 192 non-causal builds with O stored from registers (variants SM90_GLUON_FULL and
# SM90_GLUON_SHORT[(256, False)]: m128n64w4s2x2ppor): their GPU tests (float64 on odd shapes and full grids, launched =
# audited binary, cached launch = JIT launch, the API's odd shapes), counters and dudect at (32,8,512,256), then the
# API against n64s2 (the build it ran before) and cuDNN in graph replay / eager.
#   bash scripts/session39_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 100 python3 scripts/precompile.py --match ppor 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py tests/test_sm90_fwd.py \
  -k "ppor or head_dims_odd_shapes or repeated_calls or bitwise" -p no:cacheprovider -rf 2>&1 | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 -m dhpfa counters --shape 32,8,512,256 --out "$OUT/counters" 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 70 python3 -m dhpfa leak --shape 32,8,512,256 --samples 800 2>&1 | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
timeout 150 python3 scripts/ab_sm90.py --rounds 11 --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,256:4096,256:16384,192:512,192:2048,192:16384 --configs n64s2,n64s2_d192 \
  --out "$OUT/ab" > "$OUT/ab.log" 2>&1
echo "== ab rc $?"; grep -v "^$" "$OUT/ab.log" | grep -v correctness | grep -v causal | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
