#!/bin/bash
# Session 31 run 8: flash_attn_with_kvcache prefill chunks with a window and a soft-cap on the Hopper kernel (the
# kvcache test's new cases), and the Hopper varlen rule's offline test.
#   bash scripts/session31_run8.sh   (device tool: carry [".whl"]; writes under $OUT)
. "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 -m pytest -q -m gpu -n 4 tests/test_varlen.py -k "kvcache_chunk" -o cache_dir=/tmp/pc -rf \
    > "$OUT/tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/tests.log"
