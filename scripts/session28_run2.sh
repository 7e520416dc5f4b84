#!/bin/bash
# Session 28 run 2: attn_fwd_tma's masked key blocks (the causal diagonal, a ragged tail) pipelined with 1 or 2 stages
# instead of the kernel's 3 (triton_fwd._TMA_MASKED_STAGES), and causal tiles running every block masked in one loop
# (_TMA_CAUSAL_ONE_LOOP), each against the tree's kernel (scripts/triton_switch_ab.py: the API, graph replay,
# interleaved rounds).
#   bash scripts/session28_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
SH="32,32,512,64,c;16,32,1024,64,c;8,32,2048,64,c;4,32,4096,64,c;32,32,500,64;32,64,512,32,c;1,8,512,128,c;1,8,2048,128,c"
timeout 250 python3 scripts/triton_switch_ab.py --switch _TMA_MASKED_STAGES --values 1,2 --out "$OUT/stages" \
  --rounds ${ROUNDS:-25} --shapes "$SH" 2>&1 | grep -v "^\[" | tail -10
echo "stages $(( $(date +%s) - t0 )) s"
timeout 200 python3 scripts/triton_switch_ab.py --switch _TMA_CAUSAL_ONE_LOOP --values True --out "$OUT/one_loop" \
  --rounds ${ROUNDS:-25} --shapes "32,32,512,64,c;16,32,1024,64,c;8,32,2048,64,c;1,8,512,128,c" 2>&1 \
  | grep -v "^\[" | tail -6
echo "one loop $(( $(date +%s) - t0 )) s"
