#!/bin/bash
# Session 64 call 13 (validation of the session's final source): precompile and the whole test_gpu.py, the bench's GPU
# tests, and the suite's decode part (its quick cells) through measure.suite._part as `dhpfa suite` calls it.
#   bash scripts/session64_run13.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
whole_gpu_tests
echo "== test_measure GPU tests ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 -m pytest -q -m gpu tests/test_measure.py -o cache_dir=build/pcb 2>&1 | tail -1
echo "== the suite's decode part, quick cells ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 - "$OUT" <<'PY' 2>&1 | grep -v Warning | tail -16
import sys
from dhpfa.measure import bench, suite
res = {}
dec = suite._part("decode", lambda: {"rows": bench.decode_part(bench.peer_kernels(gqa=True), bench.decode_cells(
    batches=(1, 32, 128), seqs=(1024, 16384)))}, sys.argv[1], [], res)
print(bench.format_decode(dec["rows"]) if "rows" in dec else dec)
PY
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
