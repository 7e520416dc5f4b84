#!/bin/bash
# Session 51 call 8: call 6's full-grid tests (four processes, no load groups) on the tree of levels (DHPFA_CL_PULL=0):
# whether their failures follow the one-exchange meeting.
# (DHPFA_CL_PULL: a switch sm90_fwd read from the environment during calls 7-8 only; now launch_args(cluster_pull=).)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
DHPFA_CL_PULL=0 timeout 60 python3 scripts/precompile.py --jobs 16 --match ovcl --match bf16 2>&1 | tail -1
DHPFA_CL_PULL=0 timeout 150 python3 -m pytest -q -m gpu -n 4 tests/test_gpu.py -o cache_dir=build/pcb -rf \
  -k "full_grid and (d64 or d128) and (kv16ovcl16 or kv8ovcl8 or kv4ovcl4) and bf16" > "$OUT/full0.log" 2>&1
echo "full-grid (tree) rc $? $(( $(date +%s) - t0 )) s"; tail -3 "$OUT/full0.log" | cut -c1-200
grep -E "^E  " "$OUT/full0.log" | head -6 | cut -c1-300
} 2>&1 | tee "$OUT/run.log"
