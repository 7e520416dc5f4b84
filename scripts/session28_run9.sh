#!/bin/bash
# Session 28 run 9: attn_fwd_tma finding the batch, head and key/value head by multiplications with host-computed magic
# numbers (triton_fwd._TMA_MAGIC, division_magic) instead of integer divisions before the Q load: offline, the Q TMA
# issues at 0x2c0 instead of 0x640 and the loop bodies keep their instruction counts. Against the tree's kernel
# (scripts/triton_switch_ab.py: the API, graph replay, interleaved rounds), twice.
#   bash scripts/session28_run9.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
SH="32,32,512,64;32,32,512,64,c;16,32,1024,64;16,32,1024,64,c;8,32,2048,64,c;4,32,4096,64,c;4,16,1024,64;32,64,512,32"
SH="$SH;1,8,512,128,c;8,16,2048,96,c;8,8,2048,192,c;3,5,1000,64;2,48,777,64,c"
for i in 1 2; do
  timeout 280 python3 scripts/triton_switch_ab.py --switch _TMA_MAGIC --values True --out "$OUT/ab$i" \
    --rounds ${ROUNDS:-25} --shapes "$SH" 2>&1 | grep -v "^\[" | tail -13
done
echo "ab $(( $(date +%s) - t0 )) s"
