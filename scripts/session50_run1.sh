#!/bin/bash
# Prepared in session 49 (not run: its device time was spent): clusters of sixteen CTAs (sm90_fwd CLUSTER_N = 16, a
# non-portable cluster size; cluster_launcher sets NON_PORTABLE_CLUSTER_SIZE_ALLOWED on the function): how many are
# resident (cluster_occupancy.py, now with size 16), then float64 checks, bitwise repeats and timing against clusters of
# eight at the same part counts (cluster_tree_ab --call 35). If they win, a rule (variants.SM90_FEW_PROGRAMS_CL8_TREE's
# sibling) and their variants follow; if the driver refuses the size, cluster_launcher says so.
#   bash scripts/session50_run1.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 60 python3 scripts/cluster_occupancy.py 2>&1 | tail -8
timeout 200 python3 scripts/precompile.py --jobs 16 --match ovcl8 2>&1 | tail -1
timeout 300 python3 scripts/cluster_tree_ab.py --out "$OUT/ab35" --call 35 --precompile 14 --rounds 15 2>&1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
