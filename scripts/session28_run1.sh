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
DHPFA_TMA_SKIP_EMPTY=1 LABEL="switch on" TAIL=5 t0=$t0 bash scripts/triton_gpu_tests.sh
