#!/bin/bash
# Session 4, device run 1: the launch cache and the envelope's gate. GPU tests (API, envelope, Gluon
# kernel), host time per call (cached launch vs JIT launch vs SDPA), the S <= 1K cells, then the leak
# test with the envelope at (4,16,2048,128) and (1,16,8192,128), and the envelope overhead at grid shapes.
#   bash scripts/session4_batch.sh        (writes under $OUT; PART=a or PART=b runs one half; PART=c: the
#   launch-cache tests, host time and the S <= 1K cells, then part b)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
PART=${PART:-all}
if [ "$PART" != b ]; then
if [ "$PART" = c ]; then
echo "== pytest -m gpu (launch cache, envelope)"
timeout 200 python3 -m pytest tests/test_gpu.py tests/test_envelope.py -k "cached or envelope or gate" -m gpu -q \
  -p no:cacheprovider 2>&1 | grep -E "passed|failed|Error|error|assert" | tail -20
else
echo "== pytest -m gpu (api, launch cache, envelope, gluon)"
timeout ${PYTEST_LIMIT:-330} python3 -m pytest tests/test_envelope.py tests/test_gpu.py tests/test_sm90_fwd.py \
  tests/test_api.py -m gpu -q -p no:cacheprovider 2>&1 | grep -E "passed|failed|Error|error|assert" | tail -20
fi
echo "== host overhead"
timeout 90 python3 scripts/host_overhead.py --out $OUT 2>&1 | tail -10
echo "== S <= 1K cells"
timeout 100 python3 - <<'PY' 2>&1 | tail -16
from dhpfa.measure import bench
cases = bench.grid_cases(seqs=(512, 1024))
rows = bench.run_grid(cases, bench.peer_kernels(), progress=False)
print(bench.format_table(rows))
PY
fi
if [ "$PART" != a ]; then
echo "== envelope overhead at grid shapes (gated)"
timeout 120 python3 - <<'PY' 2>&1 | tail -10
import json, os
from dhpfa.measure.leak import envelope_overhead
rows = envelope_overhead([(4, 16, 2048, 128), (16, 16, 1024, 128), (1, 16, 16384, 128), (2, 32, 8192, 64),
                          (8, 8, 2048, 256), (1, 8, 512, 64)])
json.dump(rows, open(os.path.join(os.environ.get("OUT", "out"), "envelope_overhead.json"), "w"), indent=1)
for r in rows:
    print(f"{tuple(r['shape'])}: plain {r['plain_us']:.1f} us, enveloped {r['envelope_us']:.1f} us, "
          f"overhead {r['overhead'] * 100:.1f}%, deadline {r['deadline_us']:.1f}, misses {r['misses']}/{r['calls']}")
PY
echo "== leak with the envelope (4,16,2048,128)"
timeout 200 python3 -m dhpfa leak --envelope --samples ${SAMPLES:-10000} --out $OUT/leak2048 2>&1 | tail -6
echo "== leak with the envelope (1,16,8192,128)"
timeout 200 python3 -m dhpfa leak --envelope --samples ${SAMPLES:-10000} --shape 1,16,8192,128 \
  --out $OUT/leak8192 2>&1 | tail -6
fi
