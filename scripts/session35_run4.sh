#!/bin/bash
# Session 35 call 4: the kvcache plan with one scratch allocation; the varlen kvcache / paged / plan GPU tests,
# test_gpu's wide batch entries (alone: they ran out of memory beside other workers in call 3), then host time per
# decode step, session 34's source (build/old_src, carried) and this tree's plans in alternating processes (twice
# each), and this tree with every call checked.
#   bash scripts/session35_run4.sh   (carry [".whl", "build/old_src"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py -k "kvcache or append or paged or leftpad or batch_idx or plan" \
  -p no:cacheprovider -rf > "$OUT/tests_varlen4.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests_varlen4.log" | tail -1
grep "^FAILED" "$OUT/tests_varlen4.log" | head
timeout 150 python3 -m pytest -q -m gpu tests/test_gpu.py -k "wide_batch" -p no:cacheprovider -rf > "$OUT/tests_wide4.log" 2>&1
echo "wide tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests_wide4.log" | tail -1
for cfg in old planned old2 planned2 checked; do
  case $cfg in
    old*) env PYTHONPATH=/tmp/xd:$PWD/build/old_src/src:$PWD/scripts timeout 100 python3 scripts/kvcache_host.py --out "$OUT/$cfg" ;;
    checked) DHPFA_NO_KV_PLANS=1 timeout 100 python3 scripts/kvcache_host.py --out "$OUT/$cfg" ;;
    planned*) timeout 100 python3 scripts/kvcache_host.py --out "$OUT/$cfg" ;;
  esac > "$OUT/host_$cfg.txt" 2>&1
  rm -f "$OUT/$cfg/kvcache_host_prof.txt"
  echo "== $cfg"; cut -c1-70 "$OUT/host_$cfg.txt" | tail -9
done
echo "elapsed $(( $(date +%s) - t0 )) s"
