#!/bin/bash
# Session 10, device run 3: deeper K/V rings at D=128 S=512 / 1K, causal and not (run 2: at S=512 both
# directions move the same ~256 MB at ~2 TB/s, so causal takes as long as non-causal; cuDNN causal 2.5 TB/s).
# n128s3 (three 128-key slots, O staged in Q's tile), n64s4 (four 64-key slots), n64s4_qd, n64s3_qd, against
# the API's n64s3 (causal 512) and n128s2_qd (the rest). Correctness of the new configurations first.
#   bash scripts/session10_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/check" "$OUT/d128"
timeout 200 python3 scripts/ab_sm90.py --out $OUT/check --cases "" \
  --configs n128s3,n64s4_d128,n64s4_d128_p7,n64s4_qd,n64s4_qd_p7 2>&1 | grep -v "^correctness .*: done" | tail -6
timeout 300 python3 scripts/ab_sm90.py --out $OUT/d128 --configs n64s3,n128s2_qd,n128s3,n64s4_d128,n64s4_qd,n64s3_qd \
  --cases 128:512,128:1024 --rounds 12 --reference tree/n64s3 --no-correctness 2>&1 | tail -6
