#!/bin/bash
# Session 16, device run 5: the Gluon kernel with unspecialised shape arguments (sm90_fwd.SHAPE_ARGS), and the
# workspace merge for D=96 / 128 splits of 8-64 parts, change the SASS of all 250 Gluon variants. Precompile them in parallel, then every Gluon variant against float64 on poisoned
# outputs (odd lengths, seq_q != seq_k, GQA).
#   bash scripts/session16_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 250 python3 scripts/precompile.py --match sm90_ws --jobs 16 2>&1 | tail -2
timeout 320 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -x \
  -k "sm90_ws and every_shipped_variant_matches_float64" 2>&1 | tail -4
