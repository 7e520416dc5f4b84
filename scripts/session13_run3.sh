#!/bin/bash
# Session 13, device run 3: PV_OVERLAP shipped on the few-program Gluon builds (m64n128w4s2ov, m64n64w4s2ov at D=256,
# split keys x2skov, two / four programs per tile kv2ov / kv4ov). Correctness against float64 (bf16 and fp16, causal and
# not) and bitwise determinism of the five builds, GPU tests of the new variants and the few-program API paths, then
# graph-replay timing where runs 1-2 did not measure (split keys at D=128 and causal, causal two programs per tile).
#   bash scripts/session13_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/split_kv_check.py --out $OUT --builds ov 2>&1 | grep -E "FAIL|determinism|FAILURES"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "s2ov or kv2ov or kv4ov or skov or few_program or split_the_keys_across or top_left" 2>&1 | tail -2
S=gluon_splitk_m64n64s2
timeout 60 python3 scripts/small_sweep.py --out $OUT/d128h16 --d 128 --heads 16 --seq-k 1024,2048 --rounds 9 \
  --kernels $S,${S}_ov | grep -E "^seq_k"
timeout 60 python3 scripts/small_sweep.py --out $OUT/d64h16c --d 64 --heads 16 --seq-k 2048,4096 --rounds 9 --causal \
  --kernels $S,${S}_ov | grep -E "^seq_k"
timeout 60 python3 scripts/small_sweep.py --out $OUT/d128h16c --d 128 --heads 16 --seq-k 2048,4096 --rounds 9 --causal \
  --kernels $S,${S}_ov | grep -E "^seq_k"
timeout 60 python3 scripts/small_sweep.py --out $OUT/d64h32c --d 64 --heads 32 --seq-k 1024,2048 --rounds 9 --causal \
  --kernels $S,${S}_ov | grep -E "^seq_k"
timeout 60 python3 scripts/small_sweep.py --out $OUT/d128h8c --d 128 --heads 8 --seq-k 1024,2048 --rounds 9 --causal \
  --kernels gluon_x1_m64n128s2_kv2,gluon_x1_m64n128s2_kv2_ov | grep -E "^seq_k"
