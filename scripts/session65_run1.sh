#!/bin/bash
# Prepared in session 64 for the next session (not run): where session 64's decode table (`dhpfa bench --parts decode`,
# call 12) still reads the API behind cuDNN by 0.2-2.5%:
# (1) D=64 from 256 pairs ((32..128,32,8,1,S,64), 1,024-16,384 keys): PAIR_UNITS on the D=64 whole ring at 2x the SMs'
#     programs (u20) and balanced counts (b20: k = ceil(pairs / 264) pairs a program at most; b15 at 1.5x), and a
#     program a pair on the stream ring (w128s3) at 256 pairs; session 64 call 8 read u20 x1.006-1.013 over the API at
#     512 and 1,024 pairs, not enough to pass cuDNN;
# (2) D=128 128-132 pairs at 4,096-8,192 keys ((16,32,8,1,4096,128) x0.978): a program a pair on the stream ring
#     (w128s3; session 64 call 2 read x1.008-1.017 at 4,096 keys) and on the 3-stage 64-key ring (w64s3).
#   bash scripts/session65_run1.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== D=64, 256-1,024 pairs ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,4096,16384 --heads 32:8 \
  --batches 32,64,100,128 --builds u20,b20,b15,w128s3 --out "$OUT/d64" 2>&1 | grep -v Warning | grep -v "^check "
echo "== D=128, 128-132 pairs past 3,072 keys ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 4096,8192 --heads 32:8 \
  --batches 16 --builds w128s3,w64s3 --out "$OUT/d128" 2>&1 | grep -v Warning | grep -v "^check "
timeout 100 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 4096,8192 --heads 32:4 \
  --batches 32,33 --builds w128s3,w64s3 --out "$OUT/d128g8" 2>&1 | grep -v Warning | grep -v "^check "
echo "== D=128, balanced PAIR_UNITS counts at 1.5 / 2x the SMs ($(( $(date +%s) - t0 )) s)"
# (3) session 64's note: k or k - 1 pairs a program (b15: ceil(pairs / k) programs, k = ceil(pairs / 198)) could replace
#     the k-pair rule's divisibility; 450-950 pairs at 1,024-4,096 keys against the API (the spread, the stream build or
#     the forward kernels there)
timeout 150 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,4096 --heads 32:4 \
  --batches 113,133,175,213,238 --builds b15,b20 --out "$OUT/b128" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
