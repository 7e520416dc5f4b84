#!/bin/bash
# Session 55 call 9 (call 8 ran it on the first form, a compare-and-swap count): session55_run8.sh again, on the merged
# decode kernel's second form (done-words): the decode GPU tests, rule_check --set merge55, memcheck / synccheck over
# API calls with the merge on.
#   bash scripts/session55_run9.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
exec bash "$(dirname "$0")/session55_run8.sh"
