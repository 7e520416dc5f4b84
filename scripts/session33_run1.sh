#!/bin/bash
# Session 33 run 1: the block-table prefetch (docs/experiments/session33_bt_prefetch.diff: the producer loads the next
# key block's table entry a block ahead) against the shipped paged Hopper build, scripts/paged_hopper_ab.py in the order
# base, prefetch, base, prefetch; then with the prefetch applied, the paged GPU tests, counters across input classes on
# paged calls (scripts/varlen_counters.py --page) and dudect (scripts/paged_leak.py).
#   bash scripts/session33_run1.sh   (device tool: carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
PATCH=docs/experiments/session33_bt_prefetch.diff
for v in base prefetch base prefetch; do
  if [ $v = prefetch ]; then git apply $PATCH; else git apply -R $PATCH 2>/dev/null; fi
  echo "== $v (prefetch lines in the source: $(grep -c "a block ahead" src/dhpfa/kernels/sm90_fwd.py))"
  timeout 120 python3 scripts/paged_hopper_ab.py --rounds ${ROUNDS:-9} --out "$OUT/$v" 2>&1 | tee -a "$OUT/ab_$v.txt"
  echo "done at $(( $(date +%s) - t0 )) s"
done
timeout 150 python3 -m pytest -q -m gpu -n 8 -p no:cacheprovider tests/test_varlen.py -k "sm90_varlen_paged or paged_cache" 2>&1 | tail -4
echo "tests done at $(( $(date +%s) - t0 )) s"
for a in "--d 128 --causal --page 256" "--d 256 --page 64"; do
  timeout 120 python3 scripts/varlen_counters.py --out "$OUT/counters" $a 2>&1 | tail -25
done
echo "counters done at $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/paged_leak.py --samples ${SAMPLES:-1000} --out "$OUT" 2>&1 | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
