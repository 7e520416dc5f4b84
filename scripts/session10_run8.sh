#!/bin/bash
# Session 10, device run 8: the deferred O store shipped at D=128 non-causal seq_k <= 512 (variants.
# _GLUON_N128S2_QD_DS): GPU tests of the new variants (float64, full grid, launched == audited, cached == JIT)
# and of the flag (3 programs, many tiles each), the API's repeated calls and D=128 protocol cells, determinism;
# memcheck and synccheck over the sanitizer child (its D=128 S=512 case now has 4-5 tiles a program); then the
# A/B once more (graph replay, 15 rounds).
#   bash scripts/session10_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/ab"
OUT=$OUT bash scripts/session9_tests.sh 300 "qdds or deferred" "repeated_calls or protocol_grid and 128" \
  "bitwise_deterministic or torch_compile"
TOOLS="memcheck synccheck" SAN_LIMIT=200 bash scripts/sanitize_child.sh
timeout 200 python3 scripts/ab_sm90.py --out $OUT/ab --configs n128s2_qd,n128s2_qd_ds --cases 128:512 --rounds 15 \
  --reference tree/n128s2_qd --no-correctness 2>&1 | tail -3
