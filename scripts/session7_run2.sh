#!/bin/bash
# Session 7, device run 2: GPU tests after SKIP_MASKED became the default of the causal Gluon builds with
# narrow key blocks and the few-program rule was extended to D=128 / 256. Five pytest processes in parallel
# (compilation dominates; they share Triton's cache; correctness only, nothing timed).
#   bash scripts/session7_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
T=${PYTEST_LIMIT:-520}
run() { name=$1; shift; timeout $T python3 -m pytest -m gpu -q -p no:cacheprovider "$@" > $OUT/pytest_$name.txt 2>&1; }
run sm90 tests/test_sm90_fwd.py &
run var_bf16 tests/test_gpu.py -k "matches_float64 and bf16" &
run var_fp16 tests/test_gpu.py -k "matches_float64 and fp16" &
run api tests/test_gpu.py tests/test_tune.py tests/test_envelope.py -k "protocol_grid or head_dims or deterministic or torch_compile or cached or tune" &
run binary tests/test_gpu.py -k "launched_binary and sm90_ws" &
wait
for f in $OUT/pytest_*.txt; do echo "== $f"; grep -E "passed|failed|FAILED|Error|rel err" $f | tail -12; done
