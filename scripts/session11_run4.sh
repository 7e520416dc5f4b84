#!/bin/bash
# Session 11, device run 4: (1,8,512,64) once more with the new few-program dispatch (the API, "dhpfa", beside the
# pointer-load tiles it ran before and the Gluon one-consumer tiles it runs now; 15 rounds of graph replay); then
# the seq_k sweep at D=128 (512 queries, 8 heads: where 128-key blocks overtake the shipped 64-key ones).
#   bash scripts/session11_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/d128"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/small_tiles.py --out $OUT --preset x1d64 --shapes "1,8,512,64" --rounds 15
timeout 200 python3 scripts/small_sweep.py --out $OUT/d128 --d 128
