#!/bin/bash
# (Negative: the build and the options it uses were removed after run 5; `git apply docs/experiments/session19_packed_pp_split.diff` restores them (scripts/ppkv_warm.py included).)
# Session 19, device run 5: the two-consumer split packed build with deeper rings (run 4: its time per key block grows
# with the programs running, as if each program's two-slot ring waited on DRAM): 128-key blocks with 3 stages, 64-key
# blocks with 4 and 6, at 8 and 16 parts, forced, against the shipped 2-stage build and the API (graph replay).
#   bash scripts/session19_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
CFG8=n128s3kv8,n64s4kv8,n64s6kv8; CFG16=n128s3kv16,n64s4kv16,n64s6kv16
timeout 200 python3 scripts/precompile.py --match kv --match bf16 --match d128-causal --jobs 8 2>&1 | tail -1 &
timeout 200 python3 scripts/ppkv_warm.py $CFG8,$CFG16 2>&1 | tail -1
wait
timeout 200 python3 scripts/packed_queries.py --out "$OUT/a" --rounds 7 --no-peers --ppkv 8 --ppkv-cfg $CFG8 \
  --shapes "1,32,8,48,8192,128,c;1,32,8,48,32768,128,c;1,32,8,48,2048,128,c" 2>&1 | grep -v Warning
timeout 200 python3 scripts/packed_queries.py --out "$OUT/b" --rounds 7 --no-peers --ppkv 16 --ppkv-cfg $CFG16 \
  --shapes "1,32,8,32,32768,128,c;1,32,8,32,8192,128,c;1,8,1,64,8192,128,c" 2>&1 | grep -v Warning
