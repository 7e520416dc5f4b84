#!/bin/bash
# Session 12, device run 7: four programs per tile (SPLIT_KV = 4, pairs meeting twice) beside two. Correctness against
# float64 and bitwise determinism (eager and graph replay) for both, then graph-replay sweeps over seq_k with 2 and 4
# heads (16 / 32 tiles: four programs per tile fit the SMs) at D=64 and 128.
#   bash scripts/session12_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/split_kv_check.py --out $OUT 2>&1 | grep -E "FAIL|determinism|FAILURES"
for d in 64 128; do for h in 2 4; do
  timeout 90 python3 scripts/small_sweep.py --out $OUT/d${d}h$h --d $d --heads $h --seq-k 1024,2048,4096,8192,16384 \
    --rounds 7 | grep -E "^seq_k|^fit (dhpfa|gluon_x1_m64n128s2_kv|select)"
done; done
