#!/bin/bash
# Session 13, device run 1: the one-consumer Gluon builds of few-program grids with each softmax beside the previous
# block's PV GEMM (sm90_fwd PV_OVERLAP, TileConfig.pv_overlap) against the same builds without it. Graph replay,
# interleaved rounds; small_tiles checks every build against float64 (bf16) before timing it.
#   bash scripts/session13_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 240 python3 scripts/small_tiles.py --out $OUT --preset ov --shapes "1,8,512,64;1,8,512,128;1,8,512,256" \
  --rounds 15 2>&1 | grep -vE "^\s+sdpa_flash"
timeout 120 python3 scripts/small_sweep.py --out $OUT/d64h8 --d 64 --heads 8 --seq-k 256,512,1024,2048 --rounds 9 \
  --kernels gluon_x1_m64n128s2,gluon_x1_m64n128s2_ov,gluon_x1_m64n128s2_kv2,gluon_x1_m64n128s2_kv2_ov,gluon_splitk_m64n64s2,gluon_splitk_m64n64s2_ov \
  | grep -E "^seq_k|^fit"
timeout 100 python3 scripts/small_sweep.py --out $OUT/d128h4 --d 128 --heads 4 --seq-k 2048,8192 --rounds 9 \
  --kernels gluon_x1_m64n128s2_kv2,gluon_x1_m64n128s2_kv2_ov,gluon_x1_m64n128s2_kv4,gluon_x1_m64n128s2_kv4_ov \
  | grep -E "^seq_k"
timeout 100 python3 scripts/small_sweep.py --out $OUT/d64h4c --d 64 --heads 4 --seq-k 2048,16384 --rounds 9 --causal \
  --kernels gluon_x1_m64n128s2_kv4,gluon_x1_m64n128s2_kv4_ov | grep -E "^seq_k"
