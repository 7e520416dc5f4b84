#!/bin/bash
# Session 28 run 12: the whole bench (bf16) once more on the final source, on another machine (issue 2's D=64 S=512
# cell had 1.533x FA2 in run 10's bench): session 26 run 5's commands.
#   bash scripts/session28_run12.sh   (writes under $OUT)
exec bash "$(dirname "$0")/session26_run5.sh"
