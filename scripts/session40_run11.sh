#!/bin/bash
# Session 40 call 11: does the schedule cost DRAM reads? (16,8,1024,256) causal read 251 MB from DRAM against the 201 MB
# of Q, K and V (call 8). A copy of sm90_fwd (src/dhpfa/kernels/_ab_pairs.py, carried) gives each program consecutive
# pairs of units (units 2k, 2k + 1: the same head's, so its K/V is re-read by the same SM) instead of units p, p + P:
# correctness, A/B at the short cells, and ncu DRAM bytes of both at (32,8,512,256) and (32,16,512,128) causal.
#   bash scripts/session40_run11.sh   (carry [".whl", the copy]; writes under $OUT)
MOD=_ab_pairs SHAPES="n64s2_vsoh 32,8,512,256,c;n64s3_bal 32,16,512,128,c" CASES=256:512,256:1024,128:512,128:1024 \
  exec bash "$(dirname "$0")/module_ab_ncu.sh"
