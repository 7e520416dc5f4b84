#!/bin/bash
# Session 6, device run 1: the consumers release K/V ring slots (and Q) with a per-thread
# cp.async.mbarrier.arrive.noinc instead of a one-thread mbarrier.arrive (16 fewer warpgroup BAR.SYNC per
# kernel). GPU tests of the Gluon kernel (incl. the three-consumer build), synccheck, then the A/B against
# HEAD's kernel (out/ab/sm90_base.py) and the three-consumer builds at D=64.   bash scripts/session6_ab.sh
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
echo "== pytest (gpu): Gluon kernel"
timeout ${PYTEST_LIMIT:-200} python3 -m pytest tests/test_sm90_fwd.py -m gpu -q -p no:cacheprovider -x \
  2>&1 | grep -E "passed|failed|Error|error|assert" | tail -12
echo "== synccheck"
timeout ${SAN_LIMIT:-100} compute-sanitizer --tool synccheck --kernel-name kns=attn_fwd_sm90 \
  python3 -m dhpfa.measure.sanitize child 2>&1 | tail -4
echo "== A/B"
timeout ${AB_LIMIT:-330} python3 scripts/ab_sm90.py --out $OUT --module base=out/ab/sm90_base.py \
  --configs ${CONFIGS:-n128s2,n64s2,m192n128s2_x3,m192n128s3_x3} --reference base \
  --cases ${CASES:-64:2048,64:16384,128:2048,128:16384,256:2048,256:16384} 2>&1 | tail -16
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
