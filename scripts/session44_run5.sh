#!/bin/bash
# Session 44 call 5: part 0's acknowledgement as a relaxed arrive and the meeting's waits at CTA scope, against e145548's
# swizzled cluster builds (kernels/_ab_sw.py, carried): float64 checks, graph replay of many calls and of one call, the
# stamps of the new form.
#   bash scripts/session44_run5.sh   (carry [".whl", "src/dhpfa/kernels/_ab_sw.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/precompile.py --jobs 16 --match kv2 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/cluster_tree_ab.py --out "$OUT" --precompile 14 --rounds 15 --call 5 --checks cl2,cl2n64
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/small_graph_ab.py --out "$OUT" --rounds 9 --configs cl2_n64@sw,cl2_n64 \
  --shapes 1:8:512:64,1:8:512:128 2>&1 | tail -3
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 scripts/cluster_stamps.py --out "$OUT" --launches 30
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
