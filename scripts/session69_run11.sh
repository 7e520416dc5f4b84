#!/bin/bash
# Session 69 call 11 (prepared, not run: no device time was left): the two plan tests that failed in call 10 (paged calls on the merged paged form kept no plan),
# after the paged forms' Kept took the block table, with SWAP_DECODE_KV_PAGED_PARTS on (scripts/paged_plan69.py).
#   bash scripts/session69_run11.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 100 python3 scripts/paged_plan69.py -k "plan_matches_the_checked_call and paged or plan_in_cuda_graph" 2>&1 \
  | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
