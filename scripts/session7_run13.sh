#!/bin/bash
# Session 7, device run 13: the few-program long-key rule extended (split keys at D=128, one consumer at D=256
# causal): GPU tests of the new variants, memcheck and synccheck over the sanitizer child, and the API's
# choice in graph replay.   bash scripts/session7_run13.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/sk"
timeout 150 python3 -m pytest tests/test_gpu.py tests/test_tune.py -m gpu -q -p no:cacheprovider \
  -k "x2sk or few" 2>&1 | grep -E "passed|failed|Error|error|assert" | tail -6
for tool in memcheck synccheck; do
  echo "== $tool"
  timeout 150 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 -m dhpfa.measure.sanitize child 2>&1 | tail -2
done
timeout 150 python3 scripts/small_tiles.py --out $OUT/sk --preset splitk --rounds 9 \
  --shapes "1,2,4096,128;1,4,2048,256" 2>&1 | grep -E "==|dhpfa|sdpa_cudnn|x2sk|w4s" | tail -30
