#!/bin/bash
# Session 38 call 7: the masked softmax's one bound per row (ROW_BOUND, the dense causal builds): the GPU tests that
# run causal builds (test_sm90_fwd, test_varlen, test_gpu; -k "causal or True", after precompiling the causal
# variants), then a graph-replay A/B against HEAD's sm90_fwd (src/dhpfa/kernels/_ab_head.py, carried) on the short
# causal cells.
#   bash scripts/session38_run4.sh   (carry [".whl", "src/dhpfa/kernels/_ab_head.py"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
timeout 150 python3 scripts/precompile.py --jobs 16 --match causal 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
files="tests/test_sm90_fwd.py tests/test_varlen.py tests/test_gpu.py"
timeout ${TESTS_LIMIT:-300} python3 -m pytest -q -m gpu -n 6 --dist loadgroup $files -k "causal or True" \
  -o cache_dir=build/pc38 -rf > "$OUT/gpu_tests.log" 2>&1
echo "parallel tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -5
timeout 100 python3 -m pytest -q -m gpu -n 2 $files -k "causal or True" -o cache_dir=build/pc38 --lf --lfnf=none -rf \
  > "$OUT/gpu_tests_lf.log" 2>&1
echo "failed ones again rc $? $(( $(date +%s) - t0 )) s"; tail -3 "$OUT/gpu_tests_lf.log"
timeout 150 python3 scripts/ab_sm90.py --module head=src/dhpfa/kernels/_ab_head.py --graph --rounds 9 \
  --reference dhpfa --cases 128:512,256:512,64:1024 --configs n64s3_bal,n64s2,n128s2,n128s3 --out "$OUT" > "$OUT/ab.log" 2>&1
echo "== ab rc $?"; grep -v "^$" "$OUT/ab.log" | grep -v "^correctness.*done" | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
