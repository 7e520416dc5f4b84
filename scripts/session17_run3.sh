#!/bin/bash
# Session 17, device run 3: packed heads spread over the tile (SLOTS // heads slots each, as 16-row slots put 4 heads),
# padding slots load in-bounds rows again; the packed variants' float64 tests again; then the shapes where runs 1-2 read
# 8-row slots slower than 16-row ones (groups of 4), with more rounds and the API's call timed twice (twin: noise).
#   bash scripts/session17_run3.sh   (writes under $OUT)
# Same commands as run 2 (the kernel changed in between):
exec bash "$(dirname "$0")/session17_run2.sh"
