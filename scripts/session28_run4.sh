#!/bin/bash
# Session 28 run 4: the whole bench (bf16) after the Triton 64-row TMA tiles' two changes of session 28 (the masked loop
# under a branch on its block count; two stages for the 64x64 tiles' masked blocks): session 26 run 5's commands
# (precompile, then `dhpfa bench --dtypes bf16`).
#   bash scripts/session28_run4.sh   (writes under $OUT)
exec bash "$(dirname "$0")/session26_run5.sh"
