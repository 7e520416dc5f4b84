#!/bin/bash
# Session 36 call 2: hardware counters with the SMs' own L2 sectors (counters.L2) beside DRAM bytes: the dense
# Gluon kernel (non-causal and short causal) and planned flash_attn_with_kvcache steps (with an L2 flush after each
# input copy).
#   bash scripts/session36_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
echo "== dense (2,16,2048,128)"
timeout 150 python3 -m dhpfa counters --shape 2,16,2048,128 --out "$OUT/counters_dense" 2>&1 | tail -4
echo "== dense causal (32,16,512,128)"
timeout 150 python3 -m dhpfa counters --shape 32,16,512,128 --causal --out "$OUT/counters_dense_causal" 2>&1 | tail -4
for args in "--d 128 --kvcache contiguous" "--d 128 --kvcache paged" "--d 64 --kvcache contiguous --decode"; do
  echo "== $args --flush-l2"
  timeout 150 python3 scripts/varlen_counters.py $args --flush-l2 --out "$OUT/counters" 2>&1 | tail -4
done
echo "elapsed $(( $(date +%s) - t0 )) s"
