#!/bin/bash
# Session 46 call 6: on the session's final rules, every shipped variant precompiled, the whole of test_gpu.py (session
# 34's phase b), the wide peer sweeps again (the cells calls 1 and 4 found behind cuDNN), counters and dudect at a shape
# the 128-row fill build now takes, and issue 5's table (dhpfa bench --quick: grid, small, short).
#   bash scripts/session46_run6.sh   (carry [".whl"]; writes under $OUT)
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
timeout 100 python3 scripts/peer_sweep.py --out "$OUT" --set wide --precompile 15 --rounds 5 --budget-s 60 2>&1 | grep -E "<|cells"
timeout 100 python3 scripts/peer_sweep.py --out "$OUT" --set wide2 --precompile 15 --rounds 5 --budget-s 60 2>&1 | grep -E "<|cells"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 -m dhpfa counters --out "$OUT/counters" --shape 1,8,2048,64 2>&1 | tail -4
timeout 90 python3 -m dhpfa leak --out "$OUT/leak" --shape 1,8,2048,64 --samples 1000 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 60 python3 -m dhpfa bench --quick --dtypes bf16 --parts short --out "$OUT/short" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
