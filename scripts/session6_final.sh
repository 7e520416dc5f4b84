#!/bin/bash
# Session 6, device runs 5-6 on the final kernels and dispatch.
#   PART=tests: every GPU test (launched == audited binary for the D=64 variants, where the shipped set
#               changed; the other variants' sources are unchanged but for comments);
#   PART=grid:  the bf16 grid beside the SDPA backends (incl. small shapes and the S <= 1K cells in graph
#               replay), host time per call, then memcheck over the sanitizer child.   Writes under $OUT.
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
if [ "${PART:-tests}" = tests ]; then
  timeout ${PYTEST_LIMIT:-560} python3 -m pytest tests -m gpu -q -p no:cacheprovider --durations=5 \
    -k "not launched_binary or d64" 2>&1 | tee $OUT/pytest.txt | grep -E "passed|failed|Error|error|assert|slowest|s call" | tail -25
else
  timeout ${BENCH_LIMIT:-330} python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench 2>&1 | tail -48
  timeout 60 python3 scripts/host_overhead.py --out $OUT 2>&1 | tail -12
  echo "== memcheck"
  timeout 120 compute-sanitizer --tool memcheck --kernel-name kns=attn_fwd python3 -m dhpfa.measure.sanitize child 2>&1 | tail -3
fi
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
