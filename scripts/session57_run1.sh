#!/bin/bash
# Prepared in session 56 for the next session (not run): the merged decode kernel's merge with prefetched rounds
# (sm90_decode._merge_parts PREFETCH, an experiment the API does not take) and two pairs at D=64 merged in 64 parts,
# against the shipped builds, the combine and cuDNN (scripts/decode_merge_prefetch.py: float64 checks first).
#   bash scripts/session57_run1.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_merge_prefetch ($(( $(date +%s) - t0 )) s)"
timeout 400 python3 scripts/decode_merge_prefetch.py --rounds 7 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
