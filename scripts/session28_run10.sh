#!/bin/bash
# Session 28 run 10: the final source (attn_fwd_tma with the host's magic numbers): the GPU tests of the Triton variants
# and the dispatch, counters through the API at (32,32,512,64) and (4,16,1024,64) causal, then the whole bench (bf16)
# with session 26 run 5's commands.
#   bash scripts/session28_run10.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
t0=$t0 bash scripts/triton_gpu_tests.sh
COUNTERS_LIMIT=120 bash scripts/counters_batch.sh "32,32,512,64" "4,16,1024,64 --causal"
echo "counters $(( $(date +%s) - t0 )) s"
bash scripts/session26_run5.sh
