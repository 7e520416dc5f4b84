#!/bin/bash
# Session 22 run 4 (commit 5bcf845, reverted after this run: slower at decode): the paged varlen builds with both page forms in one binary (triton_fwd._kv_range: one page index
# per key block where PAGE % BLOCK_N == 0, the per-row form otherwise): every varlen GPU test, then the paged speed
# against the contiguous call (run 1's and run 3's shapes).
#   bash scripts/session22_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 200 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 240 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -4
echo "varlen tests $(( $(date +%s) - t0 )) s"
timeout 240 python3 - <<'PY'
import json, os, sys
sys.argv = ["varlen_bench"]
import varlen_bench as vb
rows = []
for case in ((8, 32, 8, 128, 1, 16), (8, 32, 8, 128, 1, 256), (8, 32, 8, 128, 1, 64), (32, 32, 8, 128, 1, 16),
             (32, 32, 8, 128, 1, 256), (16, 16, 2, 64, 1, 64), (4, 32, 8, 128, 64, 16), (4, 32, 8, 128, 64, 64),
             (4, 32, 8, 128, 64, 256)):
    r = vb.paged_case(*case, rounds=7)
    rows.append(r)
    print(f"paged B={case[0]} H={case[1]}/{case[2]} D={case[3]} q/seq={case[4]} page={case[5]}: contiguous "
          f"{r['contiguous']['us']:.1f} us  paged {r['paged']['us']:.1f} us  x{r['paged']['us'] / r['contiguous']['us']:.2f}"
          f"  diff {r['rel_diff_paged_vs_contiguous']:.1e} {r['errors']}", flush=True)
json.dump(rows, open(os.path.join(os.environ.get("OUT", "out"), "paged_run4.json"), "w"))
PY
echo "total $(( $(date +%s) - t0 )) s"
