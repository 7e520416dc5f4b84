#!/bin/bash
# Session 9, device run 14: run 10's long-context A/B again with more rounds (one and two Q buffers, B=1,
# H=16, D=128, 15 rounds, two input sets).
#   bash scripts/session9_run14.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
timeout 300 python3 scripts/qd_longctx_ab.py --seqs 16384,32768,131072 --rounds 15
