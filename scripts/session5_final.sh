#!/bin/bash
# Session 5, device runs 4-5 on the final kernel.   PART=tests bash scripts/session5_final.sh: every GPU test
# (launched == audited binary for the Gluon variants only: the Triton ones are unchanged since session 4);
# PART=grid: the bf16 grid beside the SDPA backends, then counters and compute-sanitizer (synccheck,
# racecheck) on the Gluon kernel.   Writes under $OUT.
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
if [ "${PART:-tests}" = d64 ]; then
  # run 8: after the D=64 dispatch change: its GPU tests, then the grid and host time per call
  timeout 200 python3 -m pytest tests/test_gpu.py -m gpu -q -p no:cacheprovider \
    -k "D64 or (head_dims and 64) or deterministic or cached" 2>&1 | grep -E "passed|failed|Error|assert" | tail -8
  timeout 240 python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench 2>&1 | tail -52
  timeout 90 python3 scripts/host_overhead.py --out $OUT 2>&1 | tail -12
elif [ "${PART:-tests}" = tests ]; then
  timeout ${PYTEST_LIMIT:-540} python3 -m pytest tests -m gpu -q -p no:cacheprovider --durations=5 \
    -k "not launched_binary or sm90_ws" 2>&1 | tee $OUT/pytest.txt | grep -E "passed|failed|Error|error|assert|slowest|s call" | tail -25
else
  timeout ${BENCH_LIMIT:-330} python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench 2>&1 | tail -40
  echo "== counters (ncu)"
  timeout ${COUNTERS_LIMIT:-120} python3 -m dhpfa counters --out $OUT/counters 2>&1 | tail -14
  for tool in synccheck racecheck; do
    echo "== $tool"
    timeout 100 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd_sm90 python3 -m dhpfa.measure.sanitize child 2>&1 | tail -4
  done
fi
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
