#!/bin/bash
# Session 66 call 2: evidence for MHA decode on the swap kernels (counters over 5 rounds and dudect at a whole-pair MHA
# cell), and the whole-pair build's balanced count past the spread rule's 12x the SMs' pairs at D=128 (GQA 32 / 8 and
# MHA 32 / 32; 1,600-2,560 pairs at 1,024-2,048 keys, where the forward kernels run and trailed cuDNN by 3% in call 1).
#   bash scripts/session66_run2.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
counters_and_leak 5,32,1,128,2049,32:5
echo "== decode_stream_whole63 D=128 32/8 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_stream_whole63.py --dims 128 --keys 1024,2048 --heads 32:8 --batches 200,256,320 \
  --builds b20,b30 --rounds 5 --out "$OUT/w8"
echo "== decode_stream_whole63 D=128 32/32 ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/decode_stream_whole63.py --dims 128 --keys 1024,2048 --heads 32:32 --batches 50,64,80 \
  --builds b20,b30 --rounds 5 --out "$OUT/w32"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
