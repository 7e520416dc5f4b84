#!/bin/bash
# Session 47 call 2: (a) variants.PACKED_SPLIT_KV_SHARE (packed grouped-query calls of 2-32 queries split on half of
# the SMs at D > 64, as the unpacked tables; session 44 call 1 and session 47 call 1 read 8 parts ahead of 16 there)
# through the API against the API without it, cuDNN beside; (b) the global split-KV builds at 128 registers (two CTAs
# an SM) on decode-like calls, against the API's one-CTA-an-SM splits (cluster_tree_ab --call 22).
#   bash scripts/session47_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/precompile.py --jobs 16 --match bf16 --match pk8 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/rule_check.py --out "$OUT" --rounds 11 --set packed
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 22
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
