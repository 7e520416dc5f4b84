#!/bin/bash
# Session 40 call 8: the causal D=256 / 192 builds with consumer 0's O in a buffer of its own (O_HALF with V_STAGE,
# m128n64w4s2x2ppvsoh), shipped in place of the V_STAGE builds: their GPU tests and the API's odd shapes, an A/B against
# the V_STAGE build at 512-16K (D=256 and 192), counters and dudect at (16,8,1024,256) causal.
#   bash scripts/session40_run8.sh   (carry [".whl"]; writes under $OUT)
LABEL=ppvsoh CONFIGS=n64s2_vs,n64s2_vsoh,n64s2_vs_d192,n64s2_vsoh_d192 LEAK=1 \
  CASES=256:512,256:1024,256:2048,256:4096,256:16384,192:1024,192:4096 exec bash "$(dirname "$0")/ship_check.sh"
