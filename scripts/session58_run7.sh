#!/bin/bash
# Session 58 call 7: call 5's commands (session58_run5.sh: the decode GPU tests, rule_check --set s58) on the final
# builds: SWAP_DECODE_SPLIT {64: 16, 128: 8} from 16 parts, the slice's warps along the query heads at D=128 (binaries
# hashed identical to call 5's at D=64, call 6's at D=128).
#   bash scripts/session58_run7.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
exec bash "$(dirname "$0")/session58_run5.sh"
