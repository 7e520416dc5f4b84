#!/bin/bash
# Session 64 call 8: the stream kernel's PAIR_UNITS schedule (whole pairs a program, counts differing by at most one:
# k pairs a program where k does not divide the pairs) on the smaller rings at 1.3 / 1.5 / 2 x the SMs' programs,
# against the API and cuDNN at 400-1,024 pairs (call 6: the API x0.95-0.98 of cuDNN at 512-1,024 pairs x 1,024 keys).
#   bash scripts/session64_run8.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
for d in 128 64; do
echo "== D=$d ($(( $(date +%s) - t0 )) s)"
timeout 250 python3 scripts/decode_stream_whole63.py --rounds 5 --dims $d --keys 1024,2048,4096 --heads 32:8 \
  --batches 50,64,75,88,100,115,128 --builds u13,u15,u20 --out "$OUT/d$d" 2>&1 | grep -v Warning | grep -v "^check "
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
