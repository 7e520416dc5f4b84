#!/bin/bash
# Session 28 run 3: GPU tests and evidence for the Triton 64-row TMA tiles after the session's two changes (the masked
# loop under a branch on its public block count; two stages for the 64x64 tiles' masked blocks): the GPU tests of the
# Triton variants and of the dispatch, hardware counters through the API (5 input classes, 5 repeats of one input) at
# (32,32,512,64) non-causal and causal, and dudect (2,000 samples a class) at (32,32,512,64) causal.
#   bash scripts/session28_run3.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
t0=$t0 bash scripts/triton_gpu_tests.sh
COUNTERS_LIMIT=120 bash scripts/counters_batch.sh "32,32,512,64" "32,32,512,64 --causal"
echo "counters $(( $(date +%s) - t0 )) s"
timeout $(( 570 - ($(date +%s) - t0) )) python3 -m dhpfa leak --shape 32,32,512,64 --causal --samples ${SAMPLES:-2000} \
    --out $OUT/leak 2>&1 | grep -v "^\[" | tail -8
echo "total $(( $(date +%s) - t0 )) s"
