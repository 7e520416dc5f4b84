#!/bin/bash
# Session 48 call 2: part counts for tiles of few rows with call 1's cluster meeting (rows-only copy, even split): the
# cluster builds of 2-16 parts on decode-like calls of 768-8,192 keys against the API's rule (cluster_tree_ab --call 26,
# timing only), then call 1's A/B again on a few cases (--call 25 timing only) as a repeat.
#   bash scripts/session48_run2.sh   (carry [".whl", "src/dhpfa/kernels/_ab_prev.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 400 python3 scripts/cluster_tree_ab.py --out "$OUT/parts" --precompile 14 --rounds 11 --call 26 --timing-only
timeout 150 python3 scripts/cluster_tree_ab.py --out "$OUT/repeat" --precompile 14 --rounds 15 --call 25 --timing-only
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
