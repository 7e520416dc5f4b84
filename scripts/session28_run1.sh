#!/bin/bash
# Session 28 run 1: the Triton kernels' key-block loops under a branch on their public trip counts
# (triton_fwd._TMA_SKIP_EMPTY) against the tree's (scripts/triton_switch_ab.py: the API, graph replay, interleaved
# rounds), then the GPU tests of the Triton kernels' variants with the switch on.
#   bash scripts/session28_run1.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 300 python3 scripts/triton_switch_ab.py --switch _TMA_SKIP_EMPTY --out "$OUT/ab" --rounds ${ROUNDS:-15} 2>&1 \
  | grep -v "^\[" | tail -20
echo "ab $(( $(date +%s) - t0 )) s"
DHPFA_TMA_SKIP_EMPTY=1 timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py -o cache_dir=/tmp/pc -rf \
  -k "attn_fwd_tma or attn_fwd- or protocol or odd_shapes or at_d64_d128 or one_query_tile or bitwise or repeated" \
  > "$OUT/tests.log" 2>&1
echo "gpu tests (switch on) rc $? $(( $(date +%s) - t0 )) s"; tail -5 "$OUT/tests.log"
