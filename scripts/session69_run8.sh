#!/bin/bash
# Session 69 call 8: paged caches on the stream build's KV-cache form (variants.SWAP_DECODE_KV_PAGED_STREAM:
# attn_decode_sm90_stream PAGED on its flat schedule over the logical capacity): the paged KV-cache GPU tests and the NaN
# test (its paged stream case), racecheck on one, then the paged call against the varlen route and the contiguous
# cache's call at the stream form's cells.
#   bash scripts/session69_run8.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
# (as run: the same commands, since moved to the prelude's kvcache_tests and racecheck_kv)
{
kvcache_tests 150 "paged_decode_on_the_whole_pair_form or read_no_row"
racecheck_kv 60 "paged_decode_on_the_whole_pair_form and 128-34-4096"
echo "== decode_api_ab --paged 256 ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --paged 256 \
  --shapes 17:4096,34:4096,40:16384,17:8192 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
