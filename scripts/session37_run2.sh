#!/bin/bash
# Session 37 call 2: the num_splits GPU test (log), decode_api_ab.py after its fix, the grouped decode tiles at D=256,
# flash_attn_with_kvcache with int cache_seqlens on the dense route against the varlen route (kvcache_dense_ab.py), and
# the short cells below cuDNN on this H100 against every build there (ab_sm90.py, graph replay).
#   bash scripts/session37_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 -m pytest -q -m gpu tests/test_varlen.py -k "kvcache_num_splits" -p no:cacheprovider 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 scripts/decode_api_ab.py --rounds 1 --d 64 --out "$OUT/smoke" 2>&1 | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/kvcache_dense_ab.py --rounds 5 --out "$OUT" 2>&1 | grep -v "^$"
timeout 100 python3 scripts/kvcache_dense_ab.py --rounds 5 --d 128 --append --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/decode_cfg_sweep.py --d 256 --rounds 5 --queries 1,4 \
  --configs m64n32w4s3,m16n64w4s3,m16n32w4s3,m32n64w4s3 --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/ab_sm90.py --cases 128:512,128:1024,256:512,256:1024 --no-correctness --rounds 11 \
  --reference dhpfa --configs n64s3,n128s2_qd_ds,n128s2_qd,n64s2,n64s4_d128,n64s3_np,t_m64n64s3_d128,n64s2_nopp,n64s2_noskip,t_m64n32s3_d256 \
  --out "$OUT" 2>&1 | grep -v "^$"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/log.txt"
