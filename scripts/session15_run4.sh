#!/bin/bash
# Session 15, device run 4: D=32 split across programs (the 64x128 one-consumer builds, 2-64 parts; 24 new variants):
# graph-replay timing of D=32 decode shapes (api_kv0: the API's choice without splits, as before), the GPU tests of
# the new variants and of the split / packed-decode paths at D=32, then float64 and determinism (split_kv_check
# --builds d32), then memcheck and synccheck (the sanitizer child's split cases now include D=32).
#   bash scripts/session15_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 100 python3 scripts/decode_probe.py --out $OUT/d32 --rounds 7 --parts 0 --shapes \
  "1,16,8192,32,4;1,8,32768,32,1;4,32,8192,32,8;1,32,4096,32,32;1,16,2048,32,4" 2>&1 | grep "^("
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "(d32 and kv) or (split_the_keys_across and -32-) or (one_query_gqa and -32-)" 2>&1 | tail -3
timeout 200 python3 scripts/split_kv_check.py --out $OUT --builds d32 2>&1 | grep -E "FAIL|determinism|FAILURES" | tail -14
SAN_LIMIT=90 bash scripts/sanitize_child.sh
