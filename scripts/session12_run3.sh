#!/bin/bash
# Session 12, device run 3: SPLIT_KV with causal dispatch (seq_k >= 2048). GPU tests of the API path (causal cases
# too), memcheck and synccheck (the child's long-key causal case now splits across programs), graph-replay sweeps past
# the short-tile lengths (4 heads, 512 queries, 4K-16K keys: the split build against variants.select's choice), the
# few-program shapes at 1,024 keys causal and not, and the dudect-style timing test at (1,4,1024,64).
#   bash scripts/session12_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -k "split_the_keys_across or few_program" -p no:cacheprovider \
  2>&1 | tail -3
bash scripts/sanitize_child.sh
timeout 120 python3 scripts/small_sweep.py --out $OUT/h4d64 --heads 4 --seq-k 4096,8192,16384 --rounds 7 | tail -12
timeout 120 python3 scripts/small_sweep.py --out $OUT/h4d128 --heads 4 --d 128 --seq-k 4096,8192,16384 --rounds 7 \
  | tail -12
timeout 150 python3 scripts/small_tiles.py --out $OUT --preset splitkv --shapes "1,4,1024,64;1,4,1024,128" --rounds 11 \
  2>&1 | tail -36
timeout 200 python3 -m dhpfa leak --shape 1,4,1024,64 --samples 2000 --out $OUT/leak 2>&1 | tail -12
