#!/bin/bash
# Session 17, device run 13 (final kernel): memcheck and synccheck over the sanitizer child, which now has a 4-part
# packed case (the workspace merge of run 12 at D=96 / 128).
#   bash scripts/session17_run13.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -1
SAN_LIMIT=150 bash scripts/sanitize_child.sh
