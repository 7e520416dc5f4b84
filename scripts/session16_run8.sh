#!/bin/bash
# Session 16, device run 8: float64 and determinism of D=96's 8-part split (the workspace merge, new at the kernel's
# D=128), then memcheck and synccheck over the sanitizer child.
#   bash scripts/session16_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -2
timeout 120 python3 scripts/split_kv_check.py --out $OUT --builds d96 --parts 8 2>&1 | grep -E "FAIL|determinism|FAILURES" | tail -4
SAN_LIMIT=120 bash scripts/sanitize_child.sh
