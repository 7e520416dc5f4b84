#!/bin/bash
# Session 32 run 2: paged caches on the Hopper varlen kernel (attn_fwd_sm90_varlen_paged): its GPU tests and the varlen
# tests around it (pytest-xdist), memcheck and synccheck over the sanitizer child (a paged Hopper case with the page-0
# V fix-up), then scripts/paged_hopper_ab.py (paged Hopper against the portable paged kernel and contiguous Hopper).
#   bash scripts/session32_run2.sh   (device tool: carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout ${TESTS_LIMIT:-240} python3 -m pytest -q -m gpu -n 8 -p no:cacheprovider tests/test_varlen.py \
  -k "${TESTS_K:-sm90_varlen_paged or paged_cache_decode or sm90_varlen_against or kvcache_chunk or hopper}" 2>&1 \
  | tail -${TESTS_TAIL:-15}
echo "tests done at $(( $(date +%s) - t0 )) s"
SAN_LIMIT=${SAN_LIMIT:-90} bash scripts/sanitize_child.sh
echo "sanitizers done at $(( $(date +%s) - t0 )) s"
timeout ${AB_LIMIT:-200} python3 scripts/paged_hopper_ab.py --rounds ${ROUNDS:-5} --out "$OUT" 2>&1 | tee "$OUT/paged_hopper_ab.txt"
echo "elapsed $(( $(date +%s) - t0 )) s"
