#!/bin/bash
# Session 37 call 5: eager decode loops of flash_attn_with_kvcache with int cache_seqlens on both routes (host time:
# every step of a growing int is a new signature), and the kvcache plan test with the dense route off for int lengths.
#   bash scripts/session37_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 -m pytest -q -m gpu tests/test_varlen.py -n 4 -p no:cacheprovider \
  -k "kvcache_plan_matches or kvcache_decode or kvcache_num_splits" 2>&1 | tail -3
timeout 300 python3 scripts/kvcache_dense_ab.py --eager --rounds 5 --d 64,128,256 --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
