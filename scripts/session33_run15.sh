#!/bin/bash
# Session 33 run 15: the whole GPU suite on the final source (session 26 run 7's script, no sanitizers: run 13 ran them
# on the final kernels).
#   bash scripts/session33_run15.sh   (device tool: carry [".whl"]; writes under $OUT)
PRECOMPILE_LIMIT=130 TESTS_LIMIT=280 RETRY_LIMIT=60 TOOLS=" " exec bash "$(dirname "$0")/session26_run7.sh"
