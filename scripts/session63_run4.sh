#!/bin/bash
# Session 63 call 4: the whole-pair rule from 512 keys and up to 3,072 for every pair count: the decode GPU tests (the
# API cases' expectations moved with it), rule_check --set s63b, then decode_stream_whole63.py at 128 and 256 keys
# (below the rule).
#   bash scripts/session63_run4.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s63b ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/rule_check.py --set s63b --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -10
echo "== decode_stream_whole63 at 128 and 256 keys ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 128,256 --batches 34,50,75,99 \
  --builds s128,w64s2 --out "$OUT/w128" 2>&1 | grep -v Warning | grep -v "^check"
timeout 40 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 128,256 --batches 34,50,66 \
  --builds s128x2,w128s2 --out "$OUT/w64" 2>&1 | grep -v Warning | grep -v "^check"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
