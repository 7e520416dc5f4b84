#!/bin/bash
# Prepared in session 63 for the next session (not run): where the whole-pair build has no data.
# (1) one wave or less of pairs (96-132) at D=128 / D=64, where the API runs the parts rule or the forward kernels and
#     cuDNN still leads at 128 pairs x 1,024 keys (21.26 against 20.34, session 63 call 1): a program a pair, three or
#     two an SM (w64s2 / w64s3; D=64 w128s2);
# (2) 1,056-1,584 pairs at 1,024-2,048 keys, six or eight pairs a program (the rule takes k up to 8 where pairs / k lands
#     in 1.25-1.55x the SMs; (330,32,4,1,1024,128), 1,320 pairs, stays on the forward kernels at x0.967 of cuDNN).
# The builds with more programs than the call's blocks or a k not dividing the pairs are left out by the script.
#   bash scripts/session64_run1.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== one wave or less, D=128 ($(( $(date +%s) - t0 )) s)"
timeout 80 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,4096 --batches 24,28,32,33 \
  --builds w64s2,w64s3 --out "$OUT/one128" 2>&1 | grep -v Warning | grep -v "^check"
echo "== one wave or less, D=64 ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 1024,4096 --batches 24,28,32,33 \
  --builds w128s2 --out "$OUT/one64" 2>&1 | grep -v Warning | grep -v "^check"
echo "== six and eight pairs a program ($(( $(date +%s) - t0 )) s)"
timeout 80 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 1024,2048 --batches 264,300,330,396 \
  --builds k6,k8 --out "$OUT/k128" 2>&1 | grep -v Warning | grep -v "^check"
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
