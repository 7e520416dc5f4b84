#!/bin/bash
# Prepared for the next session (NOT RUN in session 46: its device time was spent): the one-level meeting of a split-KV
# tile's programs (FLAT_MEETING: each part stores its state, adds 1 to the tile's zeroed counter, the last merges all
# parts in order), against the API's tree of meetings at the same part counts. Before the call, on the dev machine:
#   patch -o src/dhpfa/kernels/_ab_flat.py src/dhpfa/kernels/sm90_fwd.py docs/experiments/session46_flat_meeting.diff
# then run with carry [".whl", "src/dhpfa/kernels/_ab_flat.py"] (the copy is git-ignored):
#   bash scripts/session46_next_flat.sh   (writes under $OUT)
# Offline (session 46): D=64 16 parts / D=64 4 parts / D=128 8 parts packed audit clean; D=128 8 parts unpacked has two
# address findings (the O store's TMA coordinates through uniform registers that ptxas also used for merge values
# under a predicate, as the auditor reads every reaching definition: look at this before any shipping); 255 registers, no
# stack but at D=128 8 parts (32 bytes); the merge reads 8 parts at a time (GROUP), so 64 parts do not spill.
source "$(dirname "$0")/device_prelude.sh"
test -f src/dhpfa/kernels/_ab_flat.py || { echo "no src/dhpfa/kernels/_ab_flat.py: apply the diff first"; exit 1; }
{
timeout 400 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 21
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
