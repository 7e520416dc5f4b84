#!/bin/bash
# Session 13, device run 7: split keys inside a program at every length for grids of 67-132 programs (D=64/128), causal
# with one tile per program (TileConfig.unpaired, sm90_fwd PAIRED=False). GPU tests of the new variants and API paths,
# float64 and determinism of the unpaired build, memcheck and synccheck (new sanitizer case), then graph-replay timing:
# unpaired against paired against select's choice (causal, bottom-right), the API past the short-tile lengths, and the
# decode-like probe again.
#   bash scripts/session13_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py tests/test_tune.py -p no:cacheprovider \
  -k "skup or split_keys_inside or few_program or split_the_keys_across or top_left" 2>&1 | tail -2
timeout 100 python3 scripts/split_kv_check.py --out $OUT --builds up 2>&1 | grep -E "FAIL|determinism|FAILURES"
bash scripts/sanitize_child.sh
S=gluon_splitk_m64n64s2
for d in 64 128; do
  timeout 70 python3 scripts/small_sweep.py --out $OUT/d${d}h16c --d $d --heads 16 --seq-k 2048,4096,8192,16384 --causal \
    --rounds 7 --kernels $S,${S}_up | grep -E "^seq_k"
done
timeout 50 python3 scripts/small_sweep.py --out $OUT/d64h16 --d 64 --heads 16 --seq-k 8192,16384 --rounds 7 \
  --kernels $S | grep -E "^seq_k"
timeout 120 python3 scripts/decode_probe.py --out $OUT --shapes "8,16,8192,64;4,32,16384,128;32,32,8192,64"
