#!/bin/bash
# Session 64 call 6: the bench's new decode part (one query a sequence, H / H_kv 32 / 8, 8-1,024 pairs, 1,024-16,384
# keys, D = 128 / 64, bf16, CUDA-graph replay) beside the SDPA backends, and its GPU test.
#   bash scripts/session64_run6.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
echo "== test_measure GPU tests ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 -m pytest -q -m gpu tests/test_measure.py -o cache_dir=build/pcb -rf 2>&1 | tail -3
echo "== dhpfa bench --parts decode ($(( $(date +%s) - t0 )) s)"
timeout 400 python3 -m dhpfa bench --parts decode --dtypes bf16 --out "$OUT/bench" 2>&1 | grep -v Warning | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
