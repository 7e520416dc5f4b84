#!/bin/bash
# Session 40 call 13: the causal D=256 / 192 builds with each unit's light tile first (LIGHT_FIRST, with O_HALF and
# V_STAGE: m128n64w4s2x2ppvsohlf), shipped: GPU tests with the API's odd shapes, repeated calls and bitwise checks; A/B
# against the build before (n64s2_vsoh) at 512-16K and D=192; counters at (16,8,1024,256) causal.
#   bash scripts/session40_run13.sh   (carry [".whl"]; writes under $OUT)
LABEL=ppvsohlf CONFIGS=n64s2_vsoh,n64s2_vsohlf,n64s2_vsoh_d192,n64s2_vsohlf_d192 CHECK=n64s2_vsohlf_p7 \
  CASES=256:512,256:1024,256:2048,256:4096,256:16384,192:512,192:1024 exec bash "$(dirname "$0")/ship_check.sh"
