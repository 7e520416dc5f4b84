"""Offline SASS statistics of the Gluon kernel's shipped configurations (no GPU): registers, spills and
the count of the instructions that set the consumer step's pace (HGMMA, warpgroup BAR.SYNC, mbarrier
arrives and waits), per function, and per consumer step how many exponentials ptxas schedules while the
step's PV GEMM is in flight (the MUFU.EX2 between the wait for S, `WARPGROUP.DEPBAR.LE gsb0, 0x1`, and the
wait for PV, `... 0x0`; and after it: session 9 read 0 of 66 at D=128). Used to check a kernel change before
spending device time. Each line ends with the listing's SHA-256 (12 hex digits): run it before and after a kernel
change (session 41: in a worktree of HEAD beside the tree) and compare which binaries moved.

    PYTHONPATH=src python3 scripts/sass_stats.py [--head-dims 64,128,256] [--match SUBSTRING] [--json FILE]
"""
import argparse
import collections
import hashlib
import json
import re

import torch

from dhpfa.audit import _compile, variant_launch
from dhpfa.kernels import variants

OPS = ("HGMMA", "BAR.SYNC", "BAR.ARV", "SYNCS.ARRIVE", "ARRIVES", "SYNCS.PHASECHK", "WARPSYNC", "LDL", "STL", "MUFU.EX2")


def overlap_per_step(sass: str):
    """[(exponentials while PV is in flight, exponentials after its wait)] per consumer step."""
    lines = [l for l in sass.splitlines() if re.match(r"\s+/\*[0-9a-f]{4,}\*/", l)]
    steps = []
    for i, line in enumerate(lines):
        if "WARPGROUP.DEPBAR.LE gsb0, 0x1" not in line:
            continue
        before, j = 0, i + 1
        while j < len(lines) and "DEPBAR.LE gsb0, 0x0" not in lines[j]:
            before += "MUFU.EX2" in lines[j]
            j += 1
        after, k = 0, j + 1
        while k < len(lines) and "HGMMA" not in lines[k] and "DEPBAR" not in lines[k]:
            after += "MUFU.EX2" in lines[k]
            k += 1
        steps.append((before, after))
    return steps


def stats(variant):
    compiled = _compile.compile_offline(*variant_launch(variant))
    text = _compile.sass_text(compiled.cubin)
    hist = collections.Counter()
    for line in text.splitlines():
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        if m:
            op = m.group(1)
            hist[next((o for o in OPS if op.startswith(o)), "other")] += 1
    res = _compile.resource_usage(compiled.cubin).get(compiled.name, {})
    return dict(name=variant.name, regs=res.get("regs"), stack=res.get("stack"), ops={o: hist[o] for o in OPS},
                total=sum(hist.values()), ex2_during_pv=overlap_per_step(text),
                sha=hashlib.sha256(text.encode()).hexdigest()[:12])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--head-dims", default="64,128,256")
    ap.add_argument("--dtype", default="bf16")
    ap.add_argument("--match", default="", help="only variants whose name contains this")
    ap.add_argument("--json")
    a = ap.parse_args()
    dt = {"bf16": torch.bfloat16, "fp16": torch.float16}[a.dtype]
    dims = {int(x) for x in a.head_dims.split(",")}
    rows = [stats(v) for v in variants.shipped_variants()
            if v.kernel in variants.GLUON_KERNELS and v.dtype == dt and v.head_dim in dims and a.match in v.name]
    for r in rows:
        print(f"{r['name']:<72} regs={r['regs']} stack={r['stack']} total={r['total']} " +
              " ".join(f"{o}={n}" for o, n in r["ops"].items()) + f" ex2_during_pv={r['ex2_during_pv']} sha={r['sha']}")
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
