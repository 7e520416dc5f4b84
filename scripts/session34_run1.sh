#!/bin/bash
# Session 34 run 1-2: the whole GPU suite in two device calls on one warm machine (session 33's single call ran past
# its limits on an H100: precompile ~130+ s, then the tests at 8 workers ran out of memory beside each other).
# PHASE=a: precompile into build/tcache (an ignored path, kept on the warm machine between calls), then test_sm90_fwd
# and test_varlen; PHASE=b: test_gpu. Each on 6 workers, what fails there once more on 2 (out of memory beside the
# other workers on an 80 GB card is the known cause). --dist loadgroup (from run 12): test_gpu's full-grid tests of the
# 16+-part split builds (20 GB workspaces) in one xdist group, one at a time.
#   PHASE=a bash scripts/session34_run1.sh; PHASE=b bash scripts/session34_run1.sh   (carry [".whl"])
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
if [ "${PHASE:-a}" = a ]; then
  timeout ${PRECOMPILE_LIMIT:-240} python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
  echo "precompile $(( $(date +%s) - t0 )) s"
  files="tests/test_sm90_fwd.py tests/test_varlen.py"
else
  files="tests/test_gpu.py"
fi
timeout ${TESTS_LIMIT:-300} python3 -m pytest -q -m gpu -n ${WORKERS:-6} --dist loadgroup $files -o cache_dir=build/pc$PHASE \
  -rf --durations=12 > "$OUT/gpu_tests_$PHASE.log" 2>&1
echo "parallel tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests_$PHASE.log" | tail -2
grep -c "^FAILED" "$OUT/gpu_tests_$PHASE.log"; grep "^FAILED" "$OUT/gpu_tests_$PHASE.log" | grep -vc "OutOfMemory"
timeout ${RETRY_LIMIT:-150} python3 -m pytest -q -m gpu -n 2 $files -o cache_dir=build/pc$PHASE --lf --lfnf=none -rf \
  > "$OUT/gpu_tests_lf_$PHASE.log" 2>&1
echo "failed ones again rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/gpu_tests_lf_$PHASE.log"
