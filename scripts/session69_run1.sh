#!/bin/bash
# Prepared at the end of session 68 for the next session (not run: the device time was spent): racecheck over a
# whole-pair KV-cache case and a fill case (the test's calls: checked, planned, graph replay); decode_api_ab.py's
# columns after their helpers became one (kv_with), at two cells; then a map of the KV-cache call against the dense
# route and cuDNN where session 68 left the varlen route or did not measure (the stream build's pair counts, D=64's
# 1-1.7x band at long caches, 2,048 pairs), with the same caches as shuffled pages of 256 rows (--paged: the varlen
# route, and the prepared paged whole-pair form, variants.SWAP_DECODE_KV_PAGED; its GPU test first; both new, not yet
# run).
#   bash scripts/session69_run1.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== racecheck, KV-cache whole-pair and fill cases ($(( $(date +%s) - t0 )) s)"
timeout 100 compute-sanitizer --tool racecheck --print-limit 3 python3 -m pytest -q -m gpu tests/test_varlen.py \
  -k "kvcache_decode_on_the_swap_kernels and bf16 and (48x32 or 8x32)" -p no:cacheprovider 2>&1 \
  | grep -v "Host Frame" | tail -4
echo "== the prepared paged whole-pair form's GPU test (SWAP_DECODE_KV_PAGED on inside it) ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 -m pytest -q -m gpu tests/test_varlen.py -k "paged_decode_on_the_whole_pair_form" \
  -p no:cacheprovider -rf 2>&1 | tail -4
echo "== decode_api_ab ($(( $(date +%s) - t0 )) s)"
timeout 45 python3 scripts/decode_api_ab.py --rounds 3 --d 64 --kv-nowhole --kv-nofill --kv-fill 2 --kv-parts 1 \
  --shapes 8:4096,32:1024 --out "$OUT" 2>&1 | grep -v Warning
echo "== decode_api_ab map ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --kv-nowhole --paged 256 \
  --shapes 17:8192,20:8192,34:4096,40:16384,50:2048,96:4096,256:1024,256:4096 --out "$OUT/map" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
