#!/bin/bash
# Session 65 call 2: where call 1 read balanced PAIR_UNITS counts (b20: k = ceil(pairs / (2 x SMs)) pairs a program at
# most, ceil(pairs / k) programs) ahead of the API: (1) D=128 past 3x the SMs' pairs at 1,024-2,048 keys, where the
# API runs the stream build (532 pairs: 75.47 against b20's 70.51) or 2x the SMs' programs in uneven counts (852
# pairs: 113.69 against 106.99); the boundary against u20 (452 pairs: u20 x1.015 over b20); b30 (3x the SMs);
# (2) D=64 past 1.5x the SMs' pairs at 1,024-16,384 keys (b20 x1.004-1.023 over the forward kernels at 256-1,024
# pairs in call 1); (3) D=128 a program a pair on the stream ring (w128s3) at 0.9-1.0 of the SMs' pairs to 16,384 keys.
#   bash scripts/session65_run2.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== D=128, 3-7x the SMs' pairs ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,2048 --heads 32:4 \
  --batches 100,105,113,120,133,150,166,183,199,213,225 --builds u20,b20,b30 --out "$OUT/d128" 2>&1 \
  | grep -v Warning | grep -v "^check "
echo "== D=64, 1.5-10x the SMs' pairs ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,4096,16384 --heads 32:8 \
  --batches 25,29,33,50,65,165 --builds u20,b20,b30 --out "$OUT/d64" 2>&1 | grep -v Warning | grep -v "^check "
timeout 150 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,4096,16384 --heads 32:4 \
  --batches 75,150,175,225,275 --builds u20,b20,b30 --out "$OUT/d64g8" 2>&1 | grep -v Warning | grep -v "^check "
echo "== D=128, 0.9-1x the SMs' pairs, 4,096-16,384 keys ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 4096,16384 --heads 32:4 \
  --batches 30,31,33 --builds w128s3 --out "$OUT/one" 2>&1 | grep -v Warning | grep -v "^check "
timeout 60 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 16384 --heads 32:8 \
  --batches 16 --builds w128s3 --out "$OUT/one8" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
