#!/bin/bash
# Session 25 run 4 (experiment): the three-consumer build's row sums on the tensor cores (sm90_fwd.L_MMA: P @ ones beside
# each PV GEMM) against the sums on the FP32 pipes (scripts/p_packed_ab.py --switch L_MMA: float64 for both builds,
# interleaved rounds, cuDNN beside them), then the GPU tests of the three-consumer builds (float64, full grid, launched ==
# audited) under pytest-xdist.
#   bash scripts/session25_run4.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 300 python3 scripts/p_packed_ab.py --switch L_MMA --out "$OUT/ab" --rounds ${ROUNDS:-15} \
    --cells "64,16384;64,16384,c;64,8192;64,16384;64,16384,c;64,8192" 2>&1 | grep -v "^\[" | tail -8
echo "ab $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 4 tests/test_gpu.py tests/test_sm90_fwd.py -p no:cacheprovider -rf \
    -k "m192 or three-consumer" > "$OUT/gpu_tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/gpu_tests.log"
