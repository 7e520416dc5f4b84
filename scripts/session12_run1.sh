#!/bin/bash
# Session 12, device run 1: the cross-program key split (sm90_fwd SPLIT_KV) on few-program grids. Correctness against
# float64 on odd shapes (bf16, fp16), bitwise determinism over eager calls and CUDA-graph replays, then graph-replay
# timing beside the shipped few-program tiles ((1,8,512,D), D = 64 / 128; a seq_k sweep at D=64).
#   bash scripts/session12_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 240 python3 scripts/split_kv_check.py --out $OUT 2>&1 | tail -45
timeout 150 python3 scripts/small_tiles.py --out $OUT --preset splitkv --shapes "1,8,512,64;1,8,512,128" --rounds 15 \
  2>&1 | grep -v "causal=True" | head -30
timeout 150 python3 scripts/small_sweep.py --out $OUT --seq-k 256,512,1024,2048 --rounds 11
