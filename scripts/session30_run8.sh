#!/bin/bash
# Session 30 run 8: the Hopper varlen kernel with K_STRIDE ((start, end) key rows: flash_attn_with_kvcache's prefill
# chunks against caches of per-sequence lengths). The smoke check, the new kvcache test alone, then the varlen GPU file
# under pytest-xdist.
#   bash scripts/session30_run8.sh   (device tool: carry [".whl"]; writes under $OUT)
. "$(dirname "$0")/device_prelude.sh"
timeout 120 python3 scripts/varlen_sm90_smoke.py > "$OUT/smoke.log" 2>&1; echo "smoke rc $?"; grep -c OK "$OUT/smoke.log"
timeout 120 python3 -m pytest -q -m gpu tests/test_varlen.py -k "kvcache_chunk" -o cache_dir=/tmp/pc -rf 2>&1 | tail -3
timeout 100 python3 scripts/precompile.py --jobs 16 --match varlen 2>&1 | tail -1
timeout 220 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -o cache_dir=/tmp/pc -rf > "$OUT/varlen_tests.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/varlen_tests.log"
