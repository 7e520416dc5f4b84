#!/bin/bash
# Session 12, device run 5: what zeroing the split-key flags per call costs in CUDA-graph replay
# (scripts/split_kv_flags.py), and initcheck over one split-key call through the API (flags from torch.empty).
#   bash scripts/session12_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/split_kv_flags.py --out $OUT
timeout 150 compute-sanitizer --tool initcheck python3 -c "
import torch, dhpfa
g = torch.Generator(device='cuda').manual_seed(0)
q = torch.randn(1, 512, 4, 64, device='cuda', dtype=torch.bfloat16, generator=g)
k, v = (torch.randn(1, 2048, 4, 64, device='cuda', dtype=torch.bfloat16, generator=g) for _ in range(2))
for _ in range(3):
    o = dhpfa.flash_attn_func(q, k, v)
torch.cuda.synchronize(); print('initcheck child done')
" 2>&1 | grep -v "^=========     " | head -30
