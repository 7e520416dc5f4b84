#!/bin/bash
# Session 16, device run 6: (unspecialised shape arguments, continued) every Gluon variant on a 16K-token grid with 10
# queued calls, and launched == audited for the D=64 Gluon variants (offline compile of each; the rest in run 7).
#   bash scripts/session16_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -2
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "sm90_ws and every_shipped_variant_on_a_full_grid" 2>&1 | tail -4
timeout 80 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "sm90_ws and launched_binary and bf16-d128-full" 2>&1 | tail -3
