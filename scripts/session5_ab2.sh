#!/bin/bash
# Session 5, device run 2: A/B of four builds of the Gluon kernel (HEAD~3's, barriers split, ping-pong on
# named barriers, ring slots freed on named barriers = the tree), then the Gluon GPU tests and
# compute-sanitizer synccheck on the tree.   bash scripts/session5_ab2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
echo "== A/B"
timeout ${AB_LIMIT:-300} python3 scripts/ab_sm90.py --out $OUT --configs n128s2,n128s3,n64s2 \
  --module base=out/ab/sm90_base.py --module split=out/ab/sm90_split.py --module turns=out/ab/sm90_turns.py \
  ${AB_ARGS} 2>&1 | tail -20
echo "== pytest (gpu): ctmath, Gluon kernel"
timeout ${PYTEST_LIMIT:-150} python3 -m pytest tests/test_ctmath.py tests/test_sm90_fwd.py -m gpu -q -p no:cacheprovider \
  -x 2>&1 | grep -E "passed|failed|Error|error|assert" | tail -12
echo "== synccheck"
timeout ${SAN_LIMIT:-110} compute-sanitizer --tool synccheck --kernel-name kns=attn_fwd_sm90 \
  python3 -m dhpfa.measure.sanitize child 2>&1 | tail -6
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
