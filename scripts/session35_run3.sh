#!/bin/bash
# Session 35 call 3: the kvcache call plans and the launch template on the GPU. Precompile every variant, test_gpu
# (every shipped variant's cached launch against the JIT's, plans, graphs), the varlen kvcache / paged / plan tests,
# then the host time of decode steps under four configurations: session 34's source (build/old_src, carried), this
# tree with every kvcache call checked and new tokens written by torch, checked with kvcache_append, planned.
#   bash scripts/session35_run3.sh   (carry [".whl", "build/old_src"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 240 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py -k "kvcache or append or paged or leftpad or batch_idx or plan" \
  -p no:cacheprovider -rf > "$OUT/tests_varlen3.log" 2>&1
echo "varlen tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests_varlen3.log" | tail -1
grep "^FAILED" "$OUT/tests_varlen3.log" | head
timeout 200 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -p no:cacheprovider -rf \
  > "$OUT/tests_gpu3.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests_gpu3.log" | tail -1
grep "^FAILED" "$OUT/tests_gpu3.log" | head
for cfg in old torch checked planned; do
  case $cfg in
    old) env PYTHONPATH=/tmp/xd:$PWD/build/old_src/src:$PWD/scripts timeout 100 python3 scripts/kvcache_host.py --out "$OUT/$cfg" ;;
    torch) DHPFA_NO_KV_PLANS=1 DHPFA_APPEND_TORCH=1 timeout 100 python3 scripts/kvcache_host.py --out "$OUT/$cfg" ;;
    checked) DHPFA_NO_KV_PLANS=1 timeout 100 python3 scripts/kvcache_host.py --out "$OUT/$cfg" ;;
    planned) timeout 100 python3 scripts/kvcache_host.py --out "$OUT/$cfg" ;;
  esac > "$OUT/host_$cfg.txt" 2>&1
  echo "== $cfg"; cut -c1-70 "$OUT/host_$cfg.txt" | tail -9
done
echo "elapsed $(( $(date +%s) - t0 )) s"
