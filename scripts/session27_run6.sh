#!/bin/bash
# Session 27 run 6: hardware counters through the API (5 input classes, 5 repeats of one input) at two non-causal
# shapes whose grids split the keys across programs, (1,4,1024,128) and (1,2,2048,64): since session 27 those calls run
# the causal split-KV binary with its diagonal past every key (dispatch.SPLIT_KV_FULL_AS_CAUSAL).
#   bash scripts/session27_run6.sh   (device tool; writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
python3 -c "
import torch, dhpfa
from dhpfa import api
for s in ((1, 1024, 4, 128), (1, 2048, 2, 64)):
    q = torch.randn(*s, device='cuda', dtype=torch.bfloat16)
    api._PLANS.clear(); dhpfa.flash_attn_func(q, q, q)
    print(s, [p.variant.name for p in api._PLANS.values()])"
COUNTERS_LIMIT=200 COUNTERS_TAIL=4 bash scripts/counters_batch.sh "1,4,1024,128" "1,2,2048,64"
echo "total $(( $(date +%s) - t0 )) s"
