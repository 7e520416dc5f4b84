#!/bin/bash
# Session 12, device run 8: four programs per tile shipped (4 x programs <= SMs, seq_k >= 2048). GPU tests of every
# split variant and the API path, memcheck and synccheck over the sanitizer child (cases reaching two and four programs
# per tile), causal timing of four against two programs per tile, counters and the timing test at (1,1,2048,64).
#   bash scripts/session12_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 240 python3 -m pytest -q -m gpu tests/test_gpu.py -k "kv2 or kv4 or split_the_keys_across or few_program" \
  -p no:cacheprovider 2>&1 | tail -2
bash scripts/sanitize_child.sh
timeout 150 python3 scripts/small_tiles.py --out $OUT --preset splitkv --shapes "1,2,4096,64;1,2,4096,128" --rounds 9 \
  2>&1 | grep -E "==|kv|dhpfa"
COUNTERS_LIMIT=120 bash scripts/counters_batch.sh "1,1,2048,64" 2>&1 | head -4
timeout 150 python3 -m dhpfa leak --shape 1,1,2048,64 --samples 2000 --out $OUT/leak 2>&1 | tail -3
