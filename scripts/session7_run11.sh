#!/bin/bash
# Session 7, device run 11: the split-key few-program variant now shipped at D=64 (seq_k >= 2048): its GPU
# tests (every shipped variant against float64, launched == audited binary), compute-sanitizer memcheck and
# synccheck over the sanitizer child (now with a split-key case), and graph replay around the threshold.
#   bash scripts/session7_run11.sh   (writes under $OUT; TESTS_K, SHAPES, ROUNDS: run 13's selection)
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/splitk"
timeout 150 python3 -m pytest tests/test_gpu.py tests/test_tune.py -m gpu -q -p no:cacheprovider \
  -k "${TESTS_K:-x2sk or few or repeated}" 2>&1 | grep -E "passed|failed|Error|error|assert" | tail -6
SAN_LIMIT=150 SAN_TAIL=2 bash scripts/sanitize_child.sh
timeout 200 python3 scripts/small_tiles.py --out $OUT/splitk --preset splitk --rounds ${ROUNDS:-11} \
  --shapes "${SHAPES:-1,4,1024,64;1,4,2048,64;1,2,4096,64}" 2>&1 | grep -E "==|dhpfa|sdpa|x2sk|attn_fwd-|w4s" | tail -40
