#!/bin/bash
# Session 41 call 4: evidence for FULL_FIRST (shipped in the non-causal 128-key dense builds): the direct-launch test
# with fewer keys than a block (the masked branch) at every tile configuration, counters and dudect at (8,16,2048,128)
# non-causal (the API's n128s2_qd with it); dudect on session 40's LIGHT_FIRST build with 2,000 samples a class.
#   bash scripts/session41_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile.py --match d128-full-m128n128w4s2x2ppqd-persistent 2>&1 | tail -1
timeout 60 python3 scripts/precompile.py --match ppvsohlf --match d256 2>&1 | tail -1
timeout 150 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_sm90_fwd.py \
  -k "gluon_kernel_matches and shape3" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 60 python3 -m dhpfa counters --shape 8,16,2048,128 --out "$OUT/counters" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 130 python3 -m dhpfa leak --shape 8,16,2048,128 --samples 2000 --out "$OUT/leak_d128" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa leak --shape 16,8,1024,256 --causal --samples 2000 --out "$OUT/leak_d256" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
