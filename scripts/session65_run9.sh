#!/bin/bash
# Session 65 call 9: where the stream build's time goes at the decode map's worst cell, 136 pairs x 4,096 keys at D=128
# ((34,32,4,1,4096,128): x0.94 of cuDNN), beside one full wave (132 pairs) and 136 pairs at 16,384 keys:
# decode_stream_stamps61.py's STAMP build (session 61's first form, tail=False: stamps at start, first block, last
# block, past the releases and fence, end).
#   bash scripts/session65_run9.sh   (carry [".whl"]; writes under $OUT; about 1 minute)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/decode_stream_stamps61.py --launches 20 --out "$OUT/stamps" \
  --cases "34,32,4,4096,128;33,32,4,4096,128;34,32,4,16384,128" 2>&1 | grep -v Warning | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
