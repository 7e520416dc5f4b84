#!/bin/bash
# Session 7, device run 4: D=64 with half the softmax exponentials on the FMA pipe (ctmath.exp2_mixed,
# TileConfig.exp_emu) in the Triton kernels, against the same tiles on MUFU.EX2 only and the shipped
# three-consumer Gluon kernel (small_tiles.py --preset emu, CUDA-graph replay, random order per round);
# correctness first (sm90_check.check, float64, poisoned outputs).   bash scripts/session7_run4.sh
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/emu"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
timeout 400 python3 scripts/small_tiles.py --out $OUT/emu --preset emu --rounds 9 \
  --shapes "${SHAPES:-32,32,512,64;8,32,2048,64;4,32,4096,64;2,32,8192,64;1,32,16384,64}" 2>&1 | tail -100
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
