#!/bin/bash
# Prepared for the next session (NOT RUN in session 46: its device time was spent): the one-level meeting of a split-KV
# tile's programs (FLAT_MEETING: each part stores its state, adds 1 to the tile's zeroed counter, the last merges all
# parts in order), against the API's tree of meetings at the same part counts. Before the call, on the dev machine:
#   patch -o src/dhpfa/kernels/_ab_flat.py src/dhpfa/kernels/sm90_fwd.py docs/experiments/session46_flat_meeting.diff
# then run with carry [".whl", "src/dhpfa/kernels/_ab_flat.py"] (the copy is git-ignored):
#   bash scripts/session46_next_flat.sh   (writes under $OUT)
# Offline (session 46): D=64 16 parts / D=64 4 parts / D=128 8 parts packed audit clean; D=128 8 parts unpacked has two
# address findings: `@P1 IADD3 R29, R64, 0x270` (an address, P1 = ELECT and tid < 64) reaches `@P1 R2UR UR8, R29` (the
# TMA store's operand) only under the same predicate, which ptxas saves as bit 0x1000 of R41 and restores with LOP3.LUT
# in between; the auditor does not follow predicates through such bits, so in its view an earlier `FADD R29` (a merge
# weight) reaches too. Its model's limit, not a leak as far as this reading goes, but resolve it before any shipping
# (teach the auditor predicate saves, or code that needs none); 255 registers, no
# stack but at D=128 8 parts (32 bytes); the merge reads 8 parts at a time (GROUP), so 64 parts do not spill.
source "$(dirname "$0")/device_prelude.sh"
test -f src/dhpfa/kernels/_ab_flat.py || { echo "no src/dhpfa/kernels/_ab_flat.py: apply the diff first"; exit 1; }
{
timeout 400 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 21
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
