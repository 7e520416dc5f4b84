#!/bin/bash
# The GPU tests of the Triton kernels' variants and of the dense dispatch (pytest-xdist, 8 workers; needs the xdist
# wheels on PYTHONPATH, as the session scripts set): every shipped attn_fwd / attn_fwd_tma variant, the protocol grid,
# odd shapes and GQA, few-program grids, one-query tiles, bitwise determinism, repeated calls. Log at $OUT/tests.log;
# prints the return code, the seconds since $t0 (the caller's start) and the log's last $TAIL lines.
# Used by session28_run1, 3 and 10.
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_gpu.py -o cache_dir=/tmp/pc -rf \
  -k "attn_fwd_tma or attn_fwd- or protocol or odd_shapes or at_d64_d128 or one_query_tile or bitwise or repeated" \
  > "$OUT/tests.log" 2>&1
echo "gpu tests${LABEL:+ ($LABEL)} rc $? $(( $(date +%s) - ${t0:-$(date +%s)} )) s"; tail -${TAIL:-3} "$OUT/tests.log"
