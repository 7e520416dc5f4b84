#!/bin/bash
# (Negative: the build and the options it uses were removed after run 5; `git apply docs/experiments/session19_packed_pp_split.diff` restores them (scripts/ppkv_warm.py included).)
# Session 19, device run 4: fixed cost and per-block cost of the two-consumer split packed build (kvN forced) against
# the one-consumer packed split builds (pN forced) and the unpacked call, over key counts (graph replay).
#   bash scripts/session19_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match kv --match bf16 --match d128-causal --jobs 16 2>&1 | tail -1
S48=""; S32=""
for K in 1024 2048 4096 8192 16384 32768; do S48="$S48;1,32,8,48,$K,128,c"; S32="$S32;1,32,8,32,$K,128,c"; done
timeout 250 python3 scripts/packed_queries.py --out "$OUT/q48" --rounds 7 --shapes "${S48:1}" --ppkv 2,4,8,16 \
  --no-peers 2>&1 | grep -v Warning
timeout 250 python3 scripts/packed_queries.py --out "$OUT/q32" --rounds 7 --shapes "${S32:1}" --ppkv 2,4,8,16 \
  --parts 2,4,8,16 --no-peers 2>&1 | grep -v Warning
