#!/bin/bash
# Session 45 call 6: every shipped variant precompiled, then the whole of test_gpu.py (session 34's phase b: the cluster
# rules, the few-program grids, the long-tiles fill and every variant's launched binary), and the fill rule through the
# API against the API without it (wave_rule_ab.py --check). Phase a (test_sm90_fwd, test_varlen) follows on the warm
# machine if device time is left (session45_run7.sh).
#   bash scripts/session45_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 240 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests_b.log" 2>&1
echo "test_gpu rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests_b.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests_b.log" | head -20
timeout 60 python3 -m pytest -q -m gpu -n 2 tests/test_gpu.py -o cache_dir=build/pcb --lf --lfnf=none -rf \
  > "$OUT/gpu_tests_lf_b.log" 2>&1
echo "failed ones again rc $? $(( $(date +%s) - t0 )) s"; tail -3 "$OUT/gpu_tests_lf_b.log"
timeout 90 python3 scripts/wave_rule_ab.py --out "$OUT" --rounds 9 --check
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
