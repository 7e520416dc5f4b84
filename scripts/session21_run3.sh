#!/bin/bash
# Session 21, device run 3: the equal-length path with its rule (variants.varlen_dense) and the host-time change
# (later calls hand the 3-D tensors to the kept launchers): every varlen GPU test, then the "equal" part of
# varlen_bench on its default shapes (D = 64, 96, 128, 256).
#   bash scripts/session21_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 150 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -4
echo "tests $(( $(date +%s) - t0 )) s"
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 0 --parts equal 2>&1 | tail -24
echo "total $(( $(date +%s) - t0 )) s"
