#!/bin/bash
# Session 69 call 9: paged caches on the merged and split builds' KV-cache forms (variants.SWAP_DECODE_KV_PAGED_PARTS:
# PAGED in _run_part): the paged KV-cache GPU tests and the NaN test (their new cases), racecheck on a merged one, then
# the paged call against the varlen route and the contiguous cache's call at the parts / fill cells.
#   bash scripts/session69_run9.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
# (as run: the same commands, since moved to the prelude's kvcache_tests and racecheck_kv)
{
kvcache_tests 150 "paged_decode_on_the_whole_pair_form or read_no_row"
racecheck_kv 60 "paged_decode_on_the_whole_pair_form and 128-8-4096"
echo "== decode_api_ab --paged 256 ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --paged 256 \
  --shapes 1:8192,4:4096,8:4096,16:4096 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
