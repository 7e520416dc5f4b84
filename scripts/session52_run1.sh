#!/bin/bash
# Session 52 call 1: the one-exchange meeting (sm90_fwd CL_PULL) opened through the cluster barrier (CLP_CBAR: every
# CTA arrives at its start, with four producer warps so that no warp is parked, and waits at the meeting before its
# first copy) instead of session 51's ready words. compute-sanitizer memcheck / synccheck on one direct launch (x16p,
# then x16p@t0send: thread 0 issues every copy); each form on full grids in four processes at once (session 51: the
# ready words failed there), the ready words (@words) as session 51's control; then call 40 (float64 checks, bitwise
# repeats, timing against @words and the tree) and rule_check --set pull51 (the API with the exchange against it).
#   bash scripts/session52_run1.sh   (carry [".whl"]; writes under $OUT)
# (Ran at 04ea113: x16p@t0send and x16p@words need that commit's sm90_fwd switches, removed in 39849c4.)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
for n in x16p x16p@t0send; do
  for tool in memcheck synccheck; do
    echo "== $tool $n"
    timeout 100 compute-sanitizer --tool $tool --print-limit 2 python3 scripts/pull_one.py $n 2>&1 \
      | grep -v "Host Frame" | tail -4
  done
  echo "   ($(( $(date +%s) - t0 )) s)"
done
echo "== memcheck x16p, D=64, four KV heads (clusters of 16 at D=64)"
timeout 100 compute-sanitizer --tool memcheck --print-limit 2 python3 scripts/pull_one.py x16p 1 32 4 1 4101 64 2>&1 \
  | grep -v "Host Frame" | tail -3
python3 -c "from cluster_tree_ab import module; module('x16p@words')"  # the module copy the workers import
for n in x16p x16p@words; do
  echo "== full grid, four processes: $n ($(( $(date +%s) - t0 )) s)"
  for d in 64 128 64 128; do timeout 90 python3 scripts/pull_grid.py $n $d & done; wait
done
echo "== call 40 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/cluster_tree_ab.py --out "$OUT/c40" --call 40 --rounds 9 --precompile 16 2>&1 | tail -12
echo "== rule_check pull51 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --set pull51 --out "$OUT/rc" 2>&1 | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
