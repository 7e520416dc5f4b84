#!/bin/bash
# Session 34 run 3: run 2's one test that ran out of memory beside another worker, alone; then
# scripts/paged_gather_bench.py (the Mistral chunk of 512 contiguous now on the Hopper build: the windowed long-key rule).
#   bash scripts/session34_run3.sh   (carry [".whl"], on run 1-2's warm machine: build/tcache)
source "$(dirname "$0")/device_prelude.sh"
timeout 120 python3 -m pytest -q -m gpu -p no:cacheprovider -rf \
  "tests/test_gpu.py::test_every_shipped_variant_on_a_full_grid[attn_fwd_sm90_ws-fp16-d192-causal-m64n64w4s2kv64ov]" \
  2>&1 | tail -2
timeout 200 python3 scripts/paged_gather_bench.py --rounds 7 --out "$OUT" 2>&1 | tail -7
echo "elapsed $(( $(date +%s) - t0 )) s"
