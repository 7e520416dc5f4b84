#!/bin/bash
# Session 3, device run 3: every GPU test on the new defaults, host time per call after the descriptor
# change, the S <= 1K cells again, then sanitizers and counters on the persistent kernel.
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
echo "== pytest -m gpu"
timeout ${PYTEST_LIMIT:-300} python3 -m pytest tests -m gpu -q -x -p no:cacheprovider 2>&1 | tail -8
echo "== host overhead"
timeout 60 python3 scripts/host_overhead.py --out $OUT 2>&1 | tail -8
echo "== S <= 1K cells"
timeout 90 python3 - <<'PY' 2>&1 | tail -16
from dhpfa.measure import bench
cases = bench.grid_cases(seqs=(512, 1024))
rows = bench.run_grid(cases, bench.peer_kernels(), progress=False)
print(bench.format_table(rows))
PY
echo "== sanitizers"
timeout 200 python3 - <<'PY' 2>&1 | tail -12
import json
from dhpfa.measure import sanitize
r = sanitize.run_sanitizers(timeout=45)
print(json.dumps({k: {kk: vv for kk, vv in v.items() if kk in ("errors", "ran", "clean")} for k, v in r.items()}))
rc = r.get("racecheck", {})
import re
print(sorted(set(re.findall(r"Potential \w+ hazard detected at __shared__ 0x[0-9a-f]+", rc.get("head", ""))))[:8])
PY
echo "== counters (2,16,2048,128): persistent Gluon kernel"
timeout 150 python3 -m dhpfa counters --out $OUT/counters 2>&1 | tail -16
