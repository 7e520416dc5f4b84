#!/bin/bash
# Session 5, device run 6: the short causal cells again (run 5's grid read D=256 S=512 causal at 135 TFLOPS,
# session 4 at 332): HEAD~6's kernel ("base") against the tree, random order per round.
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 300 python3 scripts/ab_sm90.py --out $OUT --configs n128s2,n64s2,n64s3 --no-correctness --rounds 20 \
  --module base=out/ab/sm90_base.py --reference base --cases ${CASES:-256:512,128:512,256:1024} 2>&1 | tail -8
timeout 120 python3 - <<'PY'
from dhpfa.measure import bench
rows = bench.run_grid(bench.grid_cases(head_dims=(256,), seqs=(512,)), bench.peer_kernels(), progress=False)
print(bench.format_table(rows))
PY
