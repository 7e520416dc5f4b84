#!/bin/bash
# Session 42 call 5: S_AHEAD (each block's softmax beside the next block's S GEMM and the previous PV GEMM, in the
# one-consumer few-program builds at D <= 64) against the same builds without it: float64 checks, then graph replay
# (scripts/flag_ab.py; D=128 and split-KV cases are controls with unchanged binaries).
#   git apply docs/experiments/session42_s_ahead.diff; bash scripts/session42_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 500 python3 scripts/flag_ab.py --flag S_AHEAD --rounds 15 --out "$OUT" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
