#!/bin/bash
# Session 37 call 3: the grouped decode tiles (variants.VARLEN_GROUP) at drafts of 8 / 32 queries and groups of 8 heads,
# D=192; flash_attn_with_kvcache's dense route for int cache_seqlens at 16-64 queries.
#   bash scripts/session37_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
S="8,4096;64,2048"
{
for spec in "64 m64n64w4s3,m16n64w2s3,m16n64w4s3" "128 m64n64w4s3,m16n32w4s3,m16n64w4s3" "256 m64n32w4s3,m16n64w4s3,m16n32w4s3"; do
  set -- $spec
  timeout 150 python3 scripts/decode_cfg_sweep.py --d $1 --rounds 5 --queries 8,32 --shapes "$S" --configs $2 --out "$OUT" 2>&1 | grep -v "^$"
  hg=$([ $1 -le 128 ] && echo 64/8 || echo 32/4)
  timeout 150 python3 scripts/decode_cfg_sweep.py --d $1 --rounds 5 --queries 1,8 --heads $hg --shapes "$S" --configs $2 --out "$OUT" 2>&1 | grep -v "^$"
  echo "elapsed $(( $(date +%s) - t0 )) s"
done
timeout 150 python3 scripts/decode_cfg_sweep.py --d 192 --rounds 5 --queries 1,4 --shapes "8,16384;$S" --configs m64n32w4s3,m16n64w4s3,m16n32w4s3 --out "$OUT" 2>&1 | grep -v "^$"
timeout 200 python3 scripts/kvcache_dense_ab.py --rounds 5 --queries 16,32,64 --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/log.txt"
