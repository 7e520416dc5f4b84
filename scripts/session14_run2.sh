#!/bin/bash
# Session 14, device run 2: SPLIT_KV with 8 and 16 programs per tile (a tree of meetings, sm90_fwd), for the small grids
# that packed decode calls make (8-32 tiles). Correctness and determinism of the new builds, then graph-replay timing
# of 2/4/8/16 programs per tile beside the API's choice, on the packed shapes (g query rows per key/value head).
#   bash scripts/session14_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 240 python3 scripts/split_kv_check.py --out $OUT --builds tree 2>&1 | grep -E "FAIL|determinism|FAILURES" | tail -12
T=kv2,kv4,kv8,kv16
timeout 200 python3 scripts/decode_probe.py --out $OUT/q4 --queries 4 --rounds 7 --tiles $T \
  --shapes "1,8,2048,128;1,8,4096,128;1,8,8192,128;1,8,16384,128;2,8,4096,128;2,8,16384,128;4,8,8192,128;1,8,4096,64;4,8,4096,64;4,8,16384,64" 2>&1 | grep "^("
timeout 100 python3 scripts/decode_probe.py --out $OUT/q32 --queries 32 --rounds 7 --tiles $T \
  --shapes "8,1,8192,128;8,1,4096,128;4,1,8192,64;16,1,8192,128" 2>&1 | grep "^("
