#!/bin/bash
# Session 16, device run 17: packed meetings move only each head's rows below SEQ_Q (_store_state / _merge_slots PACK),
# packed part counts may fill every SM (share 1; run 16), and the packed D=96 / 128 splits of 8+ parts merge through the
# workspace: the 168 packed variants (float64, 512-tile grid, launched == audited), the API's packed-query tests,
# timing (packed_queries.py, run 10 / 14 / 16's shapes), memcheck and synccheck.
#   bash scripts/session16_run17.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "(pk16 and (every_shipped or launched_binary)) or queries_of_grouped" 2>&1 | tail -3
timeout 200 python3 scripts/packed_queries.py --out $OUT --rounds 9 --shapes \
  "1,32,8,4,8192,128,c;1,64,8,8,32768,128,c;4,32,8,4,8192,128,c;8,32,8,16,4096,128,c;16,32,8,4,4096,128,c;1,32,8,4,2048,128,c;2,32,8,4,16384,64,c;1,16,4,4,8192,256,c;4,32,8,8,1000,128,c;32,32,8,4,8192,128,c;1,32,8,8,16384,128,c;2,32,8,16,8192,96,c" \
  2>&1 | grep -E "^\(|Error"
SAN_LIMIT=120 bash scripts/sanitize_child.sh
