#!/bin/bash
# Session 26 run 3: what the persistent schedule's last partial wave costs at D=128 (scripts/tile_waves.py: the API and
# cuDNN at head counts whose 128-row tiles fill the 132 SMs exactly and at the grid's), then the D=128 S=16K builds
# side by side after session 25's packed P (scripts/ab_sm90.py: n128s2 shipped, n128s3, n128s2_qd).
#   bash scripts/session26_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 200 python3 scripts/tile_waves.py --out "$OUT" --rounds ${ROUNDS:-9} 2>&1 | grep -v "^\[" | tail -10
echo "waves $(( $(date +%s) - t0 )) s"
timeout 250 python3 scripts/ab_sm90.py --out "$OUT/ab" --configs n128s2,n128s3,n128s2_qd --cases 128:16384,128:8192 \
    --reference dhpfa --rounds ${ROUNDS:-9} --no-correctness 2>&1 | grep -v "^\[" | tail -6
echo "total $(( $(date +%s) - t0 )) s"
