#!/bin/bash
# Session 37 call 4: the GPU tests of the grouped few-row tiles and of the kvcache routes (varlen tests that group,
# split, page, decode or use kvcache); the few-row tiles against the 64-row ones on paged caches (pages of 256 and 16)
# at D=256; the kvcache int-length routes as shipped (kvcache_dense_ab.py).
#   bash scripts/session37_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 400 python3 -m pytest -q -m gpu tests/test_varlen.py -n 8 -p no:cacheprovider \
  -k "few_row or kvcache or group or split or paged or decode or combine" 2>&1 | tail -5
echo "elapsed $(( $(date +%s) - t0 )) s"
for page in 256 16; do
timeout 120 python3 scripts/decode_cfg_sweep.py --d 256 --rounds 5 --queries 1,4 --page $page --shapes "8,4096;64,2048" \
  --configs m64n32w4s3,m16n64w4s3 --out "$OUT" 2>&1 | grep -v "^$"
done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/kvcache_dense_ab.py --rounds 5 --d 64,128 --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
