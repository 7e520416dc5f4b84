#!/bin/bash
# Session 66 call 3: the whole-pair build's balanced count past the spread rule's pairs (D=128 12x, D=64 10x the SMs')
# at 1.5 and 2 programs an SM, 2,048-4,000 pairs (D=64 1,600-2,560) over 1,024-16,384 keys; dudect again at call 2's
# MHA cell (its sink class read -4.3 with the calibration class at -3.7).
#   bash scripts/session66_run3.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_stream_whole63 D=128 32/8 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --dims 128 --keys 1024,2048,4096 --heads 32:8 \
  --batches 256,320,400,500 --builds b15,b20 --rounds 5 --out "$OUT/w128"
echo "== decode_stream_whole63 D=64 32/8 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --dims 64 --keys 1024,4096,16384 --heads 32:8 \
  --batches 170,200,256,320 --builds b15,b20 --rounds 5 --out "$OUT/w64"
echo "== leak 5,32,1,128,2049,32 again ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 -m dhpfa leak --shape 5,32,1,128,2049,32 --samples 2000 --out "$OUT/leak2" 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
