#!/bin/bash
# Session 30 run 4: the whole GPU suite on the final source (the Hopper varlen kernel and its rule; the dense Gluon
# kernel's source gained constexpr-gated varlen arguments, its SASS unchanged offline): session 26 run 7's steps with
# session 29 run 3's limits (test_gpu + test_sm90_fwd + test_varlen under pytest-xdist, then memcheck and synccheck over
# the sanitizer child, which now has Hopper varlen cases).
#   bash scripts/session30_run4.sh   (device tool: carry [".whl"]; writes under $OUT)
PRECOMPILE_LIMIT=150 TESTS_LIMIT=290 RETRY_LIMIT=90 SAN_LIMIT=55 exec bash "$(dirname "$0")/session26_run7.sh"
