#!/bin/bash
# Session 38 call 9: ROW_BOUND on the D=128 causal builds of 1K-16K (n128s2_qd to 8K, n128s2 past it) against HEAD's
# sm90_fwd (src/dhpfa/kernels/_ab_head.py, carried), with cuDNN, 9 rounds (graph replay to 2K).
#   bash scripts/session38_run6.sh   (carry [".whl", "src/dhpfa/kernels/_ab_head.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 scripts/ab_sm90.py --module head=src/dhpfa/kernels/_ab_head.py --rounds 9 --no-correctness \
  --reference dhpfa --cases 128:1024,128:16384 --configs n128s2_qd,n128s2 --out "$OUT" > "$OUT/ab.log" 2>&1
echo "== ab rc $?"; grep -v "^$" "$OUT/ab.log" | tail -5
echo "elapsed $(( $(date +%s) - t0 )) s"
