#!/bin/bash
# Session 13, device run 2: the one-consumer Gluon builds with the softmax's row max as a tree (sm90_fwd TREE_MAX), alone
# and with PV_OVERLAP, against the builds without; graph replay, interleaved rounds (float64 check first, bf16).
#   bash scripts/session13_run2.sh   (writes under $OUT). Ran with the tree max applied (docs/experiments/
# session13_tree_max.diff: TileConfig.tree_max, small_tiles preset ovtm, small_sweep _ovtm names); not kept.
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 240 python3 scripts/small_tiles.py --out $OUT --preset ovtm --shapes "1,8,512,64;1,8,512,128;1,8,512,256" \
  --rounds 15 --causal 0 2>&1 | grep -vE "^\s+sdpa_flash"
K=gluon_x1_m64n128s2
timeout 150 python3 scripts/small_sweep.py --out $OUT/d64h8 --d 64 --heads 8 --seq-k 256,512,1024,2048 --rounds 9 \
  --kernels ${K},${K}_ov,${K}_ovtm,${K}_kv2,${K}_kv2_ov,${K}_kv2_ovtm,gluon_splitk_m64n64s2,gluon_splitk_m64n64s2_ov,gluon_splitk_m64n64s2_ovtm \
  | grep -E "^seq_k|^fit"
timeout 100 python3 scripts/small_sweep.py --out $OUT/d128h4 --d 128 --heads 4 --seq-k 2048,8192 --rounds 9 \
  --kernels ${K}_kv4,${K}_kv4_ov,${K}_kv4_ovtm | grep -E "^seq_k"
timeout 100 python3 scripts/small_sweep.py --out $OUT/d64h4c --d 64 --heads 4 --seq-k 2048,16384 --rounds 9 --causal \
  --kernels ${K}_kv4,${K}_kv4_ov,${K}_kv4_ovtm | grep -E "^seq_k"
