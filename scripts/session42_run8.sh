#!/bin/bash
# Session 42 call 8: the row sums on the tensor cores in the one-consumer few-program build at D <= 64 (sm90_fwd
# L_MMA_X1) against the same build without them: float64 checks, then graph replay (scripts/flag_ab.py; the causal,
# D=128 and split-KV cases are controls with unchanged binaries).
#   git apply docs/experiments/session42_l_mma_x1.diff; bash scripts/session42_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 500 python3 scripts/flag_ab.py --flag L_MMA_X1 --rounds 15 --out "$OUT" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
