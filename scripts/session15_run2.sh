#!/bin/bash
# Session 15, device run 2: D=256 packed decode with the number of programs per tile forced (decode_probe --parts:
# api_kvN), to set the D=256 split rules; then the per-variant GPU tests of the 24 D=256 split variants (run 1's
# pytest was cut at its time limit before them).
#   bash scripts/session15_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/decode_probe.py --out $OUT/parts --rounds 7 --parts 2,4,8,16,32,64 --shapes \
  "1,8,8192,256,1;1,8,16384,256,1;1,8,32768,256,1;1,16,2048,256,4;1,16,4096,256,4;1,16,8192,256,4;1,16,16384,256,4;1,32,4096,256,8;1,32,16384,256,8;4,16,8192,256,4" \
  2>&1 | grep "^("
timeout 330 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "d256 and kv" 2>&1 | tail -3
