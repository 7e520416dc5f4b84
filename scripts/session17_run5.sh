#!/bin/bash
# Session 17, device run 5: packed padding slots loaded from rows past SEQ_Q (zero-filled by TMA, no memory read) instead
# of duplicate rows; the packed variants' float64 tests again; then the shapes where runs 1-3 read
# 8-row slots slower than 16-row ones (groups of 4), with more rounds and the API's call timed twice (twin: noise).
#   bash scripts/session17_run5.sh   (writes under $OUT)
# Same commands as run 2 (the kernel changed in between):
exec bash "$(dirname "$0")/session17_run2.sh"
