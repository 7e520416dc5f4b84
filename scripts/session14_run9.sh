#!/bin/bash
# Session 14, device run 9: 32 and 64 programs per tile (SPLIT_KV with five and six levels of meetings), for packed
# decode grids of 1-2 tiles (MQA at batch 1): correctness and determinism (split_kv_check --builds wide), then graph-
# replay timing of 8..64 parts on the packed shapes (32 query rows of one key/value head; 4 rows of 8 heads).
#   bash scripts/session14_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/split_kv_check.py --out $OUT --builds wide 2>&1 | grep -E "FAIL|determinism|FAILURES" | tail -10
timeout 120 python3 scripts/decode_probe.py --out $OUT/q32 --queries 32 --rounds 7 --tiles kv8,kv16,kv32,kv64 \
  --shapes "1,1,8192,128;1,1,32768,128;2,1,16384,128;1,1,16384,64;1,1,65536,128" 2>&1 | grep "^("
timeout 60 python3 scripts/decode_probe.py --out $OUT/q4 --queries 4 --rounds 7 --tiles kv8,kv16,kv32 \
  --shapes "1,2,16384,128;1,4,32768,128" 2>&1 | grep "^("
