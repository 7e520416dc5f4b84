#!/bin/bash
# Session 13, device run 4: the shipped set (PV_OVERLAP on m64n128w4s2ov, m64n64w4s2ov at D=256, kv2ov, kv4ov; the
# split-key build back without it after run 3). memcheck and synccheck over the sanitizer child, the API against its
# variant launched directly (scripts/api_gap.py), counters through the API at shapes reaching each new build, the
# timing-leak test at (1,8,512,64), and the small-shape rows of the benchmark.
#   bash scripts/session13_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
bash scripts/sanitize_child.sh
timeout 90 python3 scripts/api_gap.py --out $OUT
COUNTERS_LIMIT=100 bash scripts/counters_batch.sh "1,8,512,64" "1,4,1024,128" "1,1,2048,64" 2>&1 | grep -E "==|work_identical|kernels"
timeout 100 python3 -m dhpfa leak --shape 1,8,512,64 --samples 2000 --out $OUT/leak 2>&1 | tail -3
timeout 100 python3 -m dhpfa bench --dtypes bf16 --parts small --out $OUT/bench 2>&1 | tail -8
