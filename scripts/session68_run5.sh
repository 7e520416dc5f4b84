#!/bin/bash
# Session 68 call 5: the stream build's tail fix (each pair's verdict anded over the warps): the decode tests, 400
# repeats of call 3's failing launch alone and 4 processes at once, the fix against session 67's tail (stream_tail_ab68:
# needs src/dhpfa/kernels/_sm90_decode_s67.py, HEAD's module, in the working tree for this run); then the KV-cache fill
# at 136-224 pairs in forced part counts (decode_api_ab --kv-parts 1,2,3 --kv-nofill).
#   bash scripts/session68_run5.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
decode_tests
echo "== stream repeats ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/stream_repeat68.py --reps 400 --out "$OUT/alone.json" 2>&1 | tail -3
for i in 1 2 3 4; do
  timeout 150 python3 scripts/stream_repeat68.py --reps 400 --seed $((2378 + i)) > "$OUT/par$i.log" 2>&1 &
done
wait
for i in 1 2 3 4; do tail -2 "$OUT/par$i.log"; done
echo "== stream_tail_ab68 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/stream_tail_ab68.py --rounds 7 --out "$OUT" 2>&1 | grep -v Warning
echo "== decode_api_ab --kv-parts 1,2,3 --kv-nofill ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_api_ab.py --rounds 5 --d 64,128 --kv-parts 1,2,3 --kv-nofill \
  --shapes 17:2048,20:2048,24:2048,24:4096,28:2048,28:4096 --out "$OUT" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
