#!/bin/bash
# Session 24 run 4: issue 2's D=64 S <= 1K cells (the API runs the Triton 64x64 TMA tiles, four CTAs per SM) against
# the Gluon one-consumer 64-row builds under a launch register limit, so that two (maxnreg 128) or three (80) CTAs
# share an SM (session 8 measured the 128 form eagerly, x0.72-0.82, when direct launches were host-bound at these
# lengths: session 10), with and without the PV GEMM beside the softmax. CUDA-graph replay, interleaved rounds,
# speedups against the API's call (median of per-round ratios), correctness against float64 first.
#   bash scripts/session24_run4.sh   (writes under $OUT)
# Run 5: CONFIGS=m64n64s2_x1_r64,m64n64s3_x1_r64,m64n64s2_x1_r80 CASES=64:512,64:1024 bash scripts/session24_run4.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
t0=$(date +%s)
timeout 560 python3 scripts/ab_sm90.py --out "$OUT/ab" --rounds 11 --reference dhpfa --cases ${CASES:-64:512,64:1024,64:2048} \
    --configs ${CONFIGS:-m64n64s3_x1_r128,m64n64s2_x1_r128,m64n64s2_x1_r80,m64n64s3_x1_r80,m64n64s3_x1_ov_r80,m64n64s3_x1_ov_r128,m64n128s2_x1_ov_r128} \
    2>&1 | grep -v "^\[" | tail -20
echo "total $(( $(date +%s) - t0 )) s"
