#!/bin/bash
# (Negative: the build and the options it uses were removed after run 5; `git apply docs/experiments/session19_packed_pp_split.diff` restores them (scripts/ppkv_warm.py included).)
# Session 19, device run 3: where the warps of the two-consumer split packed build wait (ncu source page) at
# (1,32,8,48,8192,128) causal with 8 parts (run 2: about 33 us more than its 8 key blocks a program take), beside the
# unpacked call's one-consumer build.
#   bash scripts/session19_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match kv --match bf16 --match d128-causal --jobs 16 2>&1 | tail -1
. scripts/ncu_source_prof.sh
prof ppkv8 --shape 1,32,8,48,8192,128,c --ppkv 8
prof ppkv2 --shape 4,32,8,48,4096,128,c --ppkv 2
