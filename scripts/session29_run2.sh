#!/bin/bash
# Session 29 run 2: batch entries past 32-bit offsets on the TMA-descriptor kernels (test_wide_batch_entries) and the
# sliced grids again, the varlen GPU tests (launch_varlen now slices) and the Triton / dense dispatch GPU tests; then
# A/Bs in graph replay / eager as ab_sm90 does (16K-token grid, 25 rounds): D=128 2K-8K one Q buffer against two
# (n128s2 / n128s2_qd), and the short causal D=128 cells' candidates (n64s3 the API's, n64s3_qd, n64s2, three
# consumers on 192-row tiles with and without turns).
#   bash scripts/session29_run2.sh   (device tool: carry [".whl"]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -o cache_dir=/tmp/pc -rf -k "second_axis or wide_batch" \
  > "$OUT/wide.log" 2>&1
echo "wide + slice tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/wide.log"
timeout 300 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -o cache_dir=/tmp/pc -rf > "$OUT/varlen.log" 2>&1
echo "varlen gpu tests rc $? $(( $(date +%s) - t0 )) s"; tail -3 "$OUT/varlen.log"
t0=$t0 bash scripts/triton_gpu_tests.sh
timeout 200 python3 scripts/ab_sm90.py --out "$OUT/ab1" --configs n128s2,n128s2_qd --no-correctness \
  --cases 128:2048,128:4096,128:8192 --rounds 25 --reference dhpfa 2>&1 | grep -v Warning | tail -7
timeout 200 python3 scripts/ab_sm90.py --out "$OUT/ab2" --configs n64s3,n64s3_qd,n64s2,m192n64s3_x3,m192n64s2_x3_nopp \
  --cases 128:512,128:1024 --rounds 25 --reference dhpfa 2>&1 | grep -v Warning | tail -6
echo "total $(( $(date +%s) - t0 )) s"
