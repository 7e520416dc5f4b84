#!/bin/bash
# Session 69 call 4: the decode GPU tests on the changed stream kernel source (its dense builds' SASS unchanged
# offline), then hardware counters and dudect through flash_attn_with_kvcache on the stream build's KV-cache form
# (34 sequences, 272 pairs: its flat schedule, lengths 4,096 - 131 i: blocks skipped and last blocks zeroed past the
# keys) and on the merged KV-cache form (4 sequences at D=64: every last block partial, V's rows past the keys zeroed).
#   bash scripts/session69_run4.sh   (carry [".whl"]; writes under $OUT; about 8 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
decode_tests
for s in 34,32,1,128,4096,8 4,32,1,64,2048,8; do
  echo "== counters --kvcache --rounds 3 $s ($(( $(date +%s) - t0 )) s)"
  timeout 130 python3 -m dhpfa counters --kvcache --shape $s --rounds 3 --out "$OUT/kv_counters_${s//,/_}" 2>&1 | tail -12
  rm -f "$OUT"/kv_counters_${s//,/_}/*.csv
  echo "== leak --kvcache $s ($(( $(date +%s) - t0 )) s)"
  timeout 60 python3 -m dhpfa leak --kvcache --shape $s --samples 2000 --out "$OUT/kv_leak_${s//,/_}" 2>&1 | tail -3
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
