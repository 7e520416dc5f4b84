#!/bin/bash
# Session 15, device run 1: D=256 split across programs (64x64 tiles, 2-64 parts; meetings merged from the workspace,
# sm90_fwd WS_MERGE). Correctness and determinism (split_kv_check --builds d256), the GPU tests of the new variants and
# of the split/packed-decode paths, graph-replay timing of D=256 decode shapes beside cuDNN / flash and the builds
# before (few_d256: one program per tile), then memcheck and synccheck over the sanitizer child (its split cases now
# include D=256).
#   bash scripts/session15_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/split_kv_check.py --out $OUT --builds d256 2>&1 | grep -E "FAIL|determinism|FAILURES" | tail -16
timeout 100 python3 scripts/decode_probe.py --out $OUT/d256 --rounds 7 --tiles few_d256,kv8w,kv16w,kv32w,kv64w --shapes \
  "1,16,8192,256,4;1,8,32768,256,1;1,8,8192,256,1;4,16,8192,256,4;1,32,4096,256,8;8,16,8192,256,4;1,16,2048,256,4" \
  2>&1 | grep "^("
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "(d256 and kv) or split_the_keys_across or one_query_gqa" 2>&1 | tail -3
SAN_LIMIT=120 bash scripts/sanitize_child.sh
