#!/bin/bash
# Session 40 call 10: the next tile's Q prefetched into L2 by the producer warp with TMA tensor prefetches (sm90_fwd
# PREFETCH_Q, experiment: one UTMAPF per Q box, issued as the next-to-last key block loads): correctness, A/Bs against the
# same builds without it at the short cells (D=256 causal: n64s2_vsoh, the API's; D=256: n64s2_or; D=128 causal:
# n64s3_bal).   bash scripts/session40_run10.sh   (carry [".whl"]; writes under $OUT)
# (the same commands as call 9, on the tree with the TMA tensor-prefetch edit in place of call 9's)
exec bash "$(dirname "$0")/session40_run9.sh"
