#!/bin/bash
# Session 7, device run 13: the few-program long-key rule extended (split keys at D=128, one consumer at D=256
# causal): GPU tests of the new variants, memcheck and synccheck over the sanitizer child, and the API's
# choice in graph replay (run 11's script with this selection).   bash scripts/session7_run13.sh
TESTS_K="x2sk or few" SHAPES="1,2,4096,128;1,4,2048,256" ROUNDS=9 exec bash scripts/session7_run11.sh
