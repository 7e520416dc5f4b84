#!/bin/bash
# Session 27 run 1: the varlen kernel with the causal flag, the window and soft-capping as runtime arguments (one binary
# for the variants that differ only in them: fewer binaries for CI's full audit to compile) against the kernel before
# it (scripts/varlen_fold_ab.py, graph replay, interleaved rounds), then the GPU tests of the varlen path.
# Before the run, on this machine: the old module as src/dhpfa/kernels/_ab_triton_fwd_old.py (its block_info import
# pointed at _ab_block_info_old.py, a copy of the old block_info.py), and the xdist wheels in .whl/ (session 26 run 7).
#   bash scripts/session27_run1.sh   (device tool: carry [".whl", the two _ab_ files]; writes under $OUT)
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
timeout 260 python3 scripts/varlen_fold_ab.py --old _ab_triton_fwd_old --out "$OUT/fold" --rounds 9 2>&1 | tail -20
echo "ab $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -o cache_dir=/tmp/pc -rf > "$OUT/varlen_tests.log" 2>&1
echo "varlen gpu tests rc $? $(( $(date +%s) - t0 )) s"; tail -5 "$OUT/varlen_tests.log"
