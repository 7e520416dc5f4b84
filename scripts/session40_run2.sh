#!/bin/bash
# Session 40 call 2: causal D=256 with consumer 0's O stored from registers and consumer 1's staged in its V slot
# (n64s2_vsor: V_STAGE + O_REG), so Q is released after both consumers' last QK^T: correctness (float64, odd shapes,
# 7-program schedule), its timeline at causal 512 (B=32, H=8), and an A/B against the API (n64s2_vs causal, n64s2_or
# not) and n64s2_vs.   bash scripts/session40_run2.sh   (carry [".whl"]; writes under $OUT)
BASE=n64s2_vs NEW=n64s2_vsor ROUNDS=11 exec bash "$(dirname "$0")/build_timeline_ab.sh"
