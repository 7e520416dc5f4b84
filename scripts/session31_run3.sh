#!/bin/bash
# Session 31 run 3: the whole GPU suite on the source with the Hopper varlen kernel's local and soft-capping builds
# (rule: soft-capped calls at D=96 / 128 from 16,384 queries; D=128 local + soft-cap in one loop, LOCAL_MERGED): session
# 30 run 4's steps (test_gpu + test_sm90_fwd + test_varlen under pytest-xdist, then memcheck and synccheck over the
# sanitizer child, which now has windowed and soft-capped Hopper varlen cases).
#   bash scripts/session31_run3.sh   (device tool: carry [".whl"]; writes under $OUT)
PRECOMPILE_LIMIT=150 TESTS_LIMIT=300 RETRY_LIMIT=90 SAN_LIMIT=60 exec bash "$(dirname "$0")/session26_run7.sh"
