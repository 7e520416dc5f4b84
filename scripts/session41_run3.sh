#!/bin/bash
# Session 41 call 3: FULL_FIRST (the peeled key block unmasked where full; now only at head dims <= 128) confirmed
# against HEAD's sm90_fwd (_ab_head.py, carried) at the API's D=64 / 128 cells (15 rounds), and the GPU tests of every
# dense two/three-consumer and few-program Gluon build it changes.
#   bash scripts/session41_run3.sh   (carry [".whl", "src/dhpfa/kernels/_ab_head.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
C=n64s3_bal,n128s2_qd_ds,n128s2_qd,n128s2,m192n128s2_x3_nopp
M="--module head=src/dhpfa/kernels/_ab_head.py"
{
timeout 100 python3 scripts/precompile_ab.py --configs $C --modules sm90_fwd,_ab_head 2>&1 | tail -1
timeout 200 python3 scripts/ab_sm90.py --rounds 15 --no-correctness $M --configs $C \
  --cases 128:512,128:1024,128:2048,128:4096,128:16384,64:2048,64:16384 --out "$OUT/ab" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/precompile.py --match sm90_ws 2>&1 | tail -1
timeout $(( 575 - $(date +%s) + t0 )) python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py tests/test_sm90_fwd.py \
  -k "(sm90_ws and not d192 and not d256 and not kv and not pk) or head_dims_odd_shapes or repeated_calls or bitwise or protocol_grid or gluon_kernel_matches" \
  2>&1 | tail -5
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
