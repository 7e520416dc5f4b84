#!/bin/bash
# Session 28 run 11: the whole GPU suite on the final source (after the host's magic numbers in attn_fwd_tma): session
# 26 run 7's commands (pytest-xdist on 8 workers, failures once more on 2, compute-sanitizer memcheck and synccheck).
#   bash scripts/session28_run11.sh   (device tool: carry [".whl"]; writes under $OUT)
exec bash "$(dirname "$0")/session26_run7.sh"
