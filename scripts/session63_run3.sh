#!/bin/bash
# Session 63 call 3: the whole-pair rule (variants.swap_decode_whole) through the API: the decode GPU tests (its API
# cases and the whole launcher's float64 test among them), rule_check --set s63 (the API against the rule without it),
# memcheck / synccheck / racecheck over API calls it takes, counters and dudect at 136 pairs x 1,025 keys; then
# decode_stream_whole63.py below 1,024 keys and at 3,072 (outside the rule).
#   bash scripts/session63_run3.sh   (carry [".whl"]; writes under $OUT; about 9 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s63 ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/rule_check.py --set s63 --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -14
sanitize_decode 100 4 " (whole)" --cases "34,32,4,1025,128;50,32,4,2048,64;99,32,4,1000,128;42,16,4,4096,128"
racecheck_decode 100 4 63 "34,32,4,1025,128;40,32,4,1500,64"
counters_and_leak 34,32,1,128,1025,4:5 34,32,1,64,1025,4:5
echo "== decode_stream_whole63 below 1,024 keys and at 3,072 ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 512,3072 --batches 34,50,75,99 \
  --builds s128,w64s2 --out "$OUT/w128" 2>&1 | grep -v Warning | grep -v "^check"
timeout 40 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 512 --batches 34,50,66 \
  --builds s128x2,w128s2 --out "$OUT/w64" 2>&1 | grep -v Warning | grep -v "^check"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
