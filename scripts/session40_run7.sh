#!/bin/bash
# Session 40 call 7: causal D=256 with consumer 0's O in a 32 KB buffer of its own (TMA store, waited for only before
# the buffer's next write) and consumer 1's in its V slot (V_STAGE), so Q is released after both consumers' last QK^T
# (n64s2_vsoh): correctness, its timeline at causal 512, A/B against the API (n64s2_vs) at 512-4K.
#   bash scripts/session40_run7.sh   (carry [".whl"]; writes under $OUT)
BASE=n64s2_vs NEW=n64s2_vsoh ROUNDS=15 exec bash "$(dirname "$0")/build_timeline_ab.sh"
