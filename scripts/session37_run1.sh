#!/bin/bash
# Session 37 call 1: session 36's GPU test that had not run (flash_attn_with_kvcache num_splits), smoke runs of the
# review-refactored decode_api_ab.py / decode_split_sweep.py, and the grouped decode tiles: 16-row tiles against the
# shipped 64-row ones (decode_cfg_sweep.py, one query and four per sequence) at D=64 / 128 / 256.
#   bash scripts/session37_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 -m pytest -q -m gpu tests/test_varlen.py -k "kvcache_num_splits" -p no:cacheprovider 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 60 python3 scripts/decode_api_ab.py --rounds 1 --d 64 --out "$OUT/smoke" 2>&1 | tail -4
timeout 60 python3 scripts/decode_split_sweep.py --rounds 1 --d 128 --splits 1,4 --shapes "8,4096" --out "$OUT/smoke" 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/decode_cfg_sweep.py --d 64 --rounds 5 --queries 1,4 \
  --configs m64n64w4s3,m16n64w4s3,m16n128w4s3,m16n64w4s4,m16n64w2s3,m32n64w4s3 --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/decode_cfg_sweep.py --d 128 --rounds 5 --queries 1,4 \
  --configs m64n64w4s3,m16n64w4s3,m16n128w4s3,m16n64w4s4,m16n32w4s3,m32n64w4s3 --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/decode_cfg_sweep.py --d 256 --rounds 5 --queries 1,4 \
  --configs m64n32w4s3,m16n64w4s3,m16n32w4s3,m16n128w4s3,m32n64w4s3 --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
