#!/bin/bash
# Session 48 call 4: evidence for the rows-only cluster meeting and the few-row splits: compute-sanitizer memcheck and
# synccheck over scripts/sanitize_clusters.py (now with six few-row cases), hardware counters and dudect at the packed
# decode (1,32,1,64,4096,8) (16 parts as 8 pairs, 4 rows a tile) and at (1,32,1,128,1024,8) (4 parts, two pairs).
#   bash scripts/session48_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
for tool in memcheck synccheck; do
  echo "== $tool"; timeout 100 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 scripts/sanitize_clusters.py 2>&1 | tail -2
done
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa counters --out "$OUT/counters64" --shape 1,32,1,64,4096,8 2>&1 | tail -22
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m dhpfa leak --out "$OUT/leak64" --shape 1,32,1,64,4096,8 --samples 1000 2>&1 | tail -10
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m dhpfa leak --out "$OUT/leak128" --shape 1,32,1,128,1024,8 --samples 1000 2>&1 | tail -10
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
