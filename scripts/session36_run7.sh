#!/bin/bash
# Session 36 call 7: D=64 decode held to 128 registers (maxnreg_ab.py); decode splits past 16 parts on long caches;
# evidence for the new split rule and combine: dudect and counters on planned decode steps (4 parts each).
#   bash scripts/session36_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
echo "== maxnreg"
timeout 150 python3 scripts/maxnreg_ab.py --rounds 7 --out "$OUT" 2>&1 | tail -9
echo "== long caches, 8-32 parts"
timeout 150 python3 scripts/decode_split_sweep.py --lengths uniform --rounds 5 --out "$OUT/long" --splits 8,12,16,24,32 \
  --shapes "1,32768;1,65536;1,131072;2,65536;4,32768" 2>&1 | grep -E "D=" | sed 's/diff.*waves/waves/'
echo "== dudect"
timeout 200 python3 scripts/kvcache_leak.py --samples 1000 --out "$OUT" 2>&1 | tail -14
for args in "--d 128 --kvcache contiguous" "--d 64 --kvcache contiguous --decode"; do
  echo "== counters $args --flush-l2"
  timeout 120 python3 scripts/varlen_counters.py $args --flush-l2 --out "$OUT/counters" 2>&1 | tail -3
done
echo "elapsed $(( $(date +%s) - t0 )) s"
