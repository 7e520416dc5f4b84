#!/bin/bash
# Session 51 call 7: one full-grid test of a one-exchange build alone (its error), and the same with the tree of levels.
# (DHPFA_CL_PULL: a switch sm90_fwd read from the environment during calls 7-8 only; now launch_args(cluster_pull=).)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for pull in 1 0; do
  DHPFA_CL_PULL=$pull timeout 100 python3 -m pytest -q -m gpu tests/test_gpu.py -o cache_dir=build/pcb -x -p no:randomly \
    -k "full_grid and (bf16-d64-full-m64n128w4s2kv16ovcl16 or bf16-d128-full-m64n128w4s2kv16ovcl16)" 2>&1 \
    | grep -E "^E |passed|failed|Error" | head -8 | cut -c1-300
  echo "pull=$pull elapsed $(( $(date +%s) - t0 )) s"
done
} 2>&1 | tee "$OUT/run.log"
