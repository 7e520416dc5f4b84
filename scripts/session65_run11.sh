#!/bin/bash
# Session 65 call 11: issue 5's table on this session's lent H200 (`dhpfa bench --quick --dtypes bf16 --parts
# grid,small`: the prefill grid in TFLOPS and the small shapes in CUDA-graph replay, beside the SDPA backends); the
# prefill binaries are earlier sessions' (this session changed decode rules only).
#   bash scripts/session65_run11.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v Warning \
  | tail -45
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
