#!/bin/bash
# Session 29 run 3: the whole GPU suite on the final source with session 26 run 7's steps and shorter limits, so the call
# fits the device tool's 10 minutes: test_gpu + test_sm90_fwd + test_varlen under pytest-xdist (8 workers; what fails
# there once more on 2), then compute-sanitizer memcheck and synccheck over the sanitizer child.
#   bash scripts/session29_run3.sh   (device tool: carry [".whl"]; writes under $OUT)
PRECOMPILE_LIMIT=150 TESTS_LIMIT=290 RETRY_LIMIT=90 SAN_LIMIT=50 exec bash "$(dirname "$0")/session26_run7.sh"
