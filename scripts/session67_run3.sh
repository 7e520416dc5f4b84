#!/bin/bash
# Session 67 call 3: groups of 16 where call 2's bench read the API behind cuDNN: D=128 at 128-132 pairs (a program a
# pair on the stream build's NQ = 16 form: 191 registers) against the whole-pair ring's builds; D=64 at 1,024 keys and
# 256-1,024 pairs (the balanced whole-pair count) against other counts. Each build float64-checked first.
#   bash scripts/session67_run3.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== D=128, groups of 16, 128-132 pairs ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,4096 --heads 64:4 \
  --batches 32,33 --builds w128s3,w64s2,w64s3,p2w64s2,p2w64s3,u13 --out "$OUT/d128" 2>&1 | grep -v Warning \
  | grep -v "^check .* OK$"
echo "== D=64, groups of 16, 1,024 keys, 256-1,024 pairs ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024 --heads 64:4 \
  --batches 64,128,256 --builds b20,b30,b15,u20,w128s3 --out "$OUT/d64" 2>&1 | grep -v Warning \
  | grep -v "^check .* OK$"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
