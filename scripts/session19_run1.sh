#!/bin/bash
# (Negative: the build and the options it uses were removed after run 5; `git apply docs/experiments/session19_packed_pp_split.diff` restores them (scripts/ppkv_warm.py included).)
# Session 19, device run 1: the two-consumer packed tiles split across programs (variants.SM90_PACKED_PP_KV; sm90_fwd
# SPLIT_KV with SPLIT = 2): direct-launch float64 tests, then 33-64 queries on small grids through the API (graph
# replay) beside the unpacked call, the build forced to 2-16 parts, and the rule before (noppkv).
#   bash scripts/session19_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 240 python3 scripts/precompile.py --match kv --match bf16 --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -x -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "two_consumer_split_packed or (two_consumer_packed_tiles_mask and kv4)" 2>&1 | tail -4
SHAPES="1,32,8,48,8192,128,c;1,32,8,64,4096,128,c;2,32,8,40,8192,128,c;4,32,8,48,4096,128,c;1,64,8,48,16384,128,c;\
1,8,1,64,8192,128,c;1,16,4,48,8192,256,c;1,32,8,48,8192,64,c;2,28,4,40,4096,128;1,32,8,33,2048,128,c;\
1,64,8,16,16384,128,c;1,32,8,32,8192,128,c;1,32,8,48,1000,128,c"
timeout 420 python3 scripts/packed_queries.py --out "$OUT" --rounds 9 --shapes "$SHAPES" --ppkv 2,4,8,16 --noppkv \
  2>&1 | grep -v Warning
