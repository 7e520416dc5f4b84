#!/bin/bash
# Session 4, device run 4: with the launch cache the S <= 1K classes are no longer host-bound, so tune them
# again (bf16; D=64 also at 16K), then time the S <= 1K cells with the tuned choices beside the SDPA backends.
#   bash scripts/session4_tune.sh     (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
export DHPFA_CACHE_DIR=$OUT
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
echo "== tune S <= 1K"
timeout 300 python3 -m dhpfa tune --dtypes bf16 --seqs 512,1024 --out $OUT/tuned_short 2>&1 | tail -16
echo "== tune D64 16K"
timeout 100 python3 -m dhpfa tune --dtypes bf16 --head-dims 64 --seqs 16384 --out $OUT/tuned_d64 2>&1 | tail -4
echo "== S <= 1K cells with the tuned choices"
timeout 120 python3 - <<'PY' 2>&1 | tail -16
from dhpfa.measure import bench
cases = bench.grid_cases(seqs=(512, 1024))
rows = bench.run_grid(cases, bench.peer_kernels(), progress=False)
print(bench.format_table(rows))
PY
