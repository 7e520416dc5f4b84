#!/bin/bash
# Session 43 call 10: the cluster builds as shipped (variants.cluster_variant): precompile them, the GPU tests that run
# them (few-program grids through the API: float64, bitwise repeats and graph replays; launched == audited), the
# sanitizer child (memcheck, synccheck; it now runs a 24-program cluster case), then issue 5's small shapes
# (dhpfa bench --parts small) and counters / dudect through the API at (1,8,512,64).
#   bash scripts/session43_run10.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/precompile.py --match kv2 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "few_program or (launched_binary_is_the_audited_binary and kv2)" 2>&1 | tail -6
echo "elapsed $(( $(date +%s) - t0 )) s"
SAN_LIMIT=120 bash scripts/sanitize_child.sh
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m dhpfa bench --quick --dtypes bf16 --parts small --out "$OUT/small" 2>&1 | grep -v "^$" | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 -m dhpfa counters --shape 1,8,512,64 2>&1 | tail -14
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 90 python3 -m dhpfa leak --shape 1,8,512,64 --samples 1000 2>&1 | tail -10
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
