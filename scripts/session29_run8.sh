#!/bin/bash
# Session 29 run 8 (after the review's mends): the new GPU tests (sliced grids, wide batch entries) with the shared
# NaN-poisoning helper, and session29_run6.sh as rewritten (ncu_source_prof.sh with scripts/ncu_build.py).
#   bash scripts/session29_run8.sh   (device tool; writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
t0=$(date +%s)
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -o cache_dir=/tmp/pc -rf -k "second_axis or wide_batch" \
  2>&1 | tail -2
echo "tests $(( $(date +%s) - t0 )) s"
bash scripts/session29_run6.sh 2>&1 | grep -E "^==|samples|mbarrier|Throughput|Hit Rate|total"
