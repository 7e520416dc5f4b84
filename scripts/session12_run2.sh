#!/bin/bash
# Session 12, device run 2: the cross-program key split (SPLIT_KV) as shipped for few-program grids. GPU tests of the
# new variants and the API path, memcheck and synccheck over the sanitizer child, graph-replay sweeps (D=128 over
# seq_k; D=64 with 4 and 16 heads; causal few-program shapes), counters through the API at split shapes.
#   bash scripts/session12_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu.py -k "kv2 or split_the_keys_across or few_program" -p no:cacheprovider \
  2>&1 | tail -4
timeout 100 python3 -m pytest -q -m gpu tests/test_plans.py tests/test_tune.py -p no:cacheprovider 2>&1 | tail -2
bash scripts/sanitize_child.sh
timeout 120 python3 scripts/small_sweep.py --out $OUT/d128 --d 128 --seq-k 512,1024,2048,4096 --rounds 9 | tail -8
timeout 100 python3 scripts/small_sweep.py --out $OUT/h4 --heads 4 --seq-k 1024,2048,4096 --rounds 9 | tail -8
timeout 100 python3 scripts/small_sweep.py --out $OUT/h16 --heads 16 --seq-k 1024,2048 --rounds 9 | tail -8
timeout 150 python3 scripts/small_tiles.py --out $OUT --preset splitkv --shapes "1,2,2048,64;1,2,2048,128" --rounds 11 \
  2>&1 | tail -24
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "1,4,1024,64" "1,4,1024,128"
