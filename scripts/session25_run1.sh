#!/bin/bash
# Session 25 run 1: P carried as 16-bit pairs in int32 words (sm90_fwd.P_PACKED) against the build before it, through
# the API on the 16K-token grid's Gluon cells (scripts/p_packed_ab.py: bitwise equal outputs, float64, interleaved
# rounds with cuDNN beside them).
#   bash scripts/session25_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 480 python3 scripts/p_packed_ab.py --out "$OUT/ab" --rounds ${ROUNDS:-9} 2>&1 | grep -v "^\[" | tail -24
echo "total $(( $(date +%s) - t0 )) s"
