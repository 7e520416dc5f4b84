#!/bin/bash
# Session 64 call 11: PAIR_UNITS at 2 x the SMs' programs (u20, the spread rule's) against a balanced count (b20: k =
# ceil(pairs / (2 x SMs)) pairs a program at most, ceil(pairs / k) programs: every program k pairs or k - 1), D=128,
# 452-1,584 pairs at 1,024-2,048 keys (call 10: u20 lost at 1,100-1,120 pairs, 4.2 pairs a program on average, 5 at
# most; call 8: at 800 pairs, 3.03 on average, 4 at most, x0.90 of the API's balanced 200 programs).
#   bash scripts/session64_run11.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,2048 --heads 32:4 \
  --batches 113,128,165,200,256,275,330,396 --builds u20,b20 --out "$OUT/d128" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
