#!/bin/bash
# Session 5, device run 9: the grid's S <= 1K cells in CUDA-graph replay (bench.short_cells_graph), where
# the eager figures of runs 5 and 8 were set by the host (77-130 us per dhpfa call on those machines).
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 200 python3 - <<'PY'
import json, os
from dhpfa.measure import bench
rows = bench.short_cells_graph(bench.peer_kernels())
json.dump(rows, open(os.path.join(os.environ["OUT"], "short_graph.json"), "w"), indent=1)
print(bench.format_table(rows))
PY
