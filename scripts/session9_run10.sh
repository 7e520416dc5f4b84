#!/bin/bash
# Session 9, device run 10: long context (B=1, H=16, D=128) with one and two Q buffers, interleaved rounds
# (run 9's grid read 128K at 0.89 of 16K with the two-buffer build, 0.96 in session 8 with one), and the
# two new Q-buffer cases of tests/test_sm90_fwd.py::test_gluon_kernel_matches_float64.
#   bash scripts/session9_run10.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout 200 python3 scripts/qd_longctx_ab.py --seqs 16384,131072 --rounds 9
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider tests/test_sm90_fwd.py -k "two-q-buffers" 2>&1 | tail -2
