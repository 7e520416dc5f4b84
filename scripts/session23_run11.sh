#!/bin/bash
# Session 23 run 11: grouped varlen builds at D=192 (variants.VARLEN_GROUP_HEAD_DIMS gains 192): decode steps through
# the API with and without them (the group's heads as rows of one tile, against one head per tile), contiguous and
# paged; then the varlen GPU tests.
#   bash scripts/session23_run11.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 120 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 200 python3 - <<'PY'
import sys
sys.argv = ["varlen_bench"]
import varlen_bench as vb
from dhpfa import api
from dhpfa.kernels import variants
for dims in ((64, 128, 192, 256), (64, 128, 256), (64, 128, 192, 256)):
    variants.VARLEN_GROUP_HEAD_DIMS = dims
    for shape in ((8, 16, 4, 192, 1), (32, 32, 8, 192, 1), (8, 16, 4, 192, 8)):
        api._PLANS.clear()
        r = vb.decode_case(*shape, rounds=7)
        plans = sorted({p.variant.kernel for p in api._PLANS.values() if getattr(p, "variant", None) is not None})
        print(f"groups {dims}: decode {shape}: api {r['api']['us']:.1f} us  fa2 {r['fa2_varlen']['us']:.1f} us  "
              f"diff {r['rel_diff_rows_vs_api']:.1e}  {plans}", flush=True)
    api._PLANS.clear()
    r = vb.paged_case(8, 16, 4, 192, 1, 16, rounds=7)
    print(f"groups {dims}: paged (8,16,4,192,1) page 16: contiguous {r['contiguous']['us']:.1f} us  paged "
          f"{r['paged']['us']:.1f} us  {r['kernels']} {r['bitwise_equal_to_paged']}", flush=True)
PY
echo "bench $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider -rf 2>&1 | tail -3
echo "total $(( $(date +%s) - t0 )) s"
