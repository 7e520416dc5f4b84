#!/bin/bash
# Session 33 run 5: the whole GPU suite on the final source (session 26 run 7's script without its sanitizers, which run
# in run 6 with more time: the sanitizer child grew a paged case).
#   bash scripts/session33_run5.sh   (device tool: carry [".whl"]; writes under $OUT)
PRECOMPILE_LIMIT=150 TESTS_LIMIT=300 RETRY_LIMIT=90 TOOLS=" " exec bash "$(dirname "$0")/session26_run7.sh"
