#!/bin/bash
# Session 22 run 3 (an experiment, not shipped): the paged varlen builds with one page per key block (pages that hold
# whole 64-key blocks) against the contiguous call, to size what the per-element page arithmetic costs. Pages of 64 and
# 256 only (the edit is wrong for smaller pages). The kernel edit ran from the working tree and was then reverted:
#   git apply docs/experiments/session22_paged_per_block.diff && bash scripts/session22_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
python3 - <<'PY'
import json, os, sys
sys.argv = ["varlen_bench"]
import varlen_bench as vb
rows = []
for case in ((8, 32, 8, 128, 1, 256), (8, 32, 8, 128, 1, 64), (32, 32, 8, 128, 1, 256), (16, 16, 2, 64, 1, 64),
             (4, 32, 8, 128, 64, 64), (4, 32, 8, 128, 64, 256)):
    r = vb.paged_case(*case, rounds=7)
    rows.append(r)
    print(f"paged B={case[0]} H={case[1]}/{case[2]} D={case[3]} q/seq={case[4]} page={case[5]}: contiguous "
          f"{r['contiguous']['us']:.1f} us  paged {r['paged']['us']:.1f} us  x{r['paged']['us'] / r['contiguous']['us']:.2f}"
          f"  diff {r['rel_diff_paged_vs_contiguous']:.1e} {r['errors']}", flush=True)
json.dump(rows, open(os.path.join(os.environ.get("OUT", "out"), "paged_exp.json"), "w"))
PY
