#!/bin/bash
# Session 65 call 10: the decode map's (call 7) long-context large-batch cells at D=128, 16,384 keys, where the API
# reads x0.98-0.99 of cuDNN (800 pairs, the stream build; 1,064 / 1,328 pairs, the forward kernels): the balanced
# whole-pair count (b20; SWAP_DECODE_WHOLE_SPREAD stops at 4,096 keys) and 2x the SMs' programs (u20), beside the API.
#   bash scripts/session65_run10.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 16384 --heads 32:8 \
  --batches 50,100,133,166 --builds b20,u20 --out "$OUT/g4" 2>&1 | grep -v Warning | grep -v "^check "
timeout 150 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 8192,16384 --heads 32:4 \
  --batches 105,133,213 --builds b20 --out "$OUT/g8" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
