#!/bin/bash
# Session 69 call 9: paged caches on the merged and split builds' KV-cache forms (variants.SWAP_DECODE_KV_PAGED_PARTS:
# PAGED in _run_part): the paged KV-cache GPU tests and the NaN test (their new cases), racecheck on a merged one, then
# the paged call against the varlen route and the contiguous cache's call at the parts / fill cells.
#   bash scripts/session69_run9.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== paged KV-cache GPU tests ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k "paged_decode_on_the_whole_pair_form or read_no_row" \
  -o cache_dir=build/pcb -rf > "$OUT/kv_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/kv_tests.log" | tail -2
grep -E "^FAILED" "$OUT/kv_tests.log" | head -20
echo "== racecheck, a paged merged case ($(( $(date +%s) - t0 )) s)"
timeout 60 compute-sanitizer --tool racecheck --print-limit 3 python3 -m pytest -q -m gpu tests/test_varlen.py \
  -k "paged_decode_on_the_whole_pair_form and 128-8-4096" -p no:cacheprovider 2>&1 | grep -v "Host Frame" | tail -3
echo "== decode_api_ab --paged 256 ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --paged 256 \
  --shapes 1:8192,4:4096,8:4096,16:4096 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
