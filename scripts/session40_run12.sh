#!/bin/bash
# Session 40 call 12: the light tile of each causal unit first (its keys are a prefix of the heavy tile's, so the heavy
# tile re-reads them from L2 right after; heavy first, the light tile re-read them a whole tile later: call 11 read
# 259 MB from DRAM at (32,8,512,256) causal against 201 MB of Q, K, V). Copy: src/dhpfa/kernels/_ab_lf.py (carried):
# correctness, A/B at the short cells, and ncu DRAM bytes of both at (32,8,512,256) and (32,16,512,128) causal.
#   bash scripts/session40_run12.sh   (carry [".whl", the copy]; writes under $OUT)
MOD=_ab_lf SHAPES="n64s2_vsoh 32,8,512,256,c;n64s2_vsoh 16,8,1024,256,c;n64s3_bal 32,16,512,128,c" \
  CASES=256:512,256:1024,256:2048,128:512,128:1024 exec bash "$(dirname "$0")/module_ab_ncu.sh"
