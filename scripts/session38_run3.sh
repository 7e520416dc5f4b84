#!/bin/bash
# Session 38 call 6: one bound per row in the masked softmax (_softmax_block: a compare and a select per score) against
# HEAD's three tests (src/dhpfa/kernels/_ab_head.py, an untracked copy of the previous sm90_fwd.py), graph replay, on the
# API's builds: D=128 causal 512 (n64s3_bal), the long builds n128s2 / n64s2 / the D=64 three-consumer one.
#   bash scripts/session38_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 500 python3 scripts/ab_sm90.py --module head=src/dhpfa/kernels/_ab_head.py --graph --rounds 11 \
  --reference ${REF:-dhpfa} --cases ${CASES:-128:512,128:2048,256:512,256:2048,64:1024} \
  --configs ${AB_CONFIGS:-n64s3_bal,n128s2,n64s2,m192n128s2_x3_nopp} --out "$OUT" > "$OUT/ab.log" 2>&1
echo "== ab rc $?"; grep -v "^$" "$OUT/ab.log" | grep -v "^correctness.*done" | tail -14
echo "elapsed $(( $(date +%s) - t0 )) s"
