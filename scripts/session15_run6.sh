#!/bin/bash
# Session 15, device run 6: D=96 / 192 split across programs, the kernel built for 128 / 256 with the columns past D
# zero-filled by TMA (sm90_fwd.kernel_head_dim; 48 new variants whose binaries equal the D=128 / 256 ones). Timing of
# decode shapes against the API without splits (--parts 0: the portable kernel, as before), float64 and determinism
# (split_kv_check --builds d96 / d192, three part counts each), then the GPU tests of the split / packed-decode paths at
# these dims and the new variants' float64 test.
#   bash scripts/session15_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 120 python3 scripts/decode_probe.py --out $OUT/d96 --rounds 7 --parts 0 --shapes \
  "1,32,8192,96,8;1,32,8192,96,32;4,32,4096,96,32;1,16,8192,192,4;1,8,32768,192,1;8,16,8192,192,4" 2>&1 | grep "^("
timeout 120 python3 scripts/split_kv_check.py --out $OUT --builds d96 --parts 2,8,64 2>&1 \
  | grep -E "FAIL|determinism|FAILURES" | tail -8
timeout 120 python3 scripts/split_kv_check.py --out $OUT --builds d192 --parts 2,16,64 2>&1 \
  | grep -E "FAIL|determinism|FAILURES" | tail -8
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "(split_the_keys_across and (-96- or \
-192-)) or (one_query_gqa and (-96- or -192-)) or (matches_float64 and kv and (d96 or d192))" 2>&1 | tail -3
