#!/bin/bash
# Session 69 call 3: after call 2 found NaN outputs from every swap-kernel KV-cache form where the cache holds NaN in
# rows that hold no key (V's rows past a sequence's keys in its last block reach the GEMM with weight 0), those rows set
# to 0 in shared memory (sm90_decode._zero_rows), and the stream build's KV-cache form skipping the blocks past a
# sequence's keys (call 2: half-filled caches barely faster than full ones): the KV-cache GPU tests (the NaN test
# included), memcheck / synccheck / racecheck on the changed forms, then the call on full, one-short (--odd: every
# sequence's last block partial) and half-filled caches against the forms off, the dense route and cuDNN.
#   bash scripts/session69_run3.sh   (carry [".whl"]; writes under $OUT; about 8 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
kvcache_tests 200
for tool in memcheck synccheck; do
  echo "== $tool, the NaN-row cases ($(( $(date +%s) - t0 )) s)"
  timeout 90 compute-sanitizer --tool $tool --print-limit 3 python3 -m pytest -q -m gpu tests/test_varlen.py \
    -k "read_no_row_past_the_keys" -p no:cacheprovider 2>&1 | grep -v "Host Frame" \
    | grep -E "ERROR SUMMARY|passed|failed|Error" | tail -3
done
echo "== racecheck, KV-cache flat / whole / paged cases ($(( $(date +%s) - t0 )) s)"
timeout 90 compute-sanitizer --tool racecheck --print-limit 3 python3 -m pytest -q -m gpu tests/test_varlen.py \
  -k "read_no_row_past_the_keys and (flat or stream)" -p no:cacheprovider 2>&1 | grep -v "Host Frame" | tail -3
echo "== decode_api_ab --kv-nostream --half --odd ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_api_ab.py --rounds 5 --d 128,64 --kv-nostream --half --odd \
  --shapes 2:4096,9:2048,16:4096,17:4096,34:4096,40:16384,64:1024 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
