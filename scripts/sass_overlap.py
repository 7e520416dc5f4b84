"""Offline (no GPU): how many of a consumer step's exponentials ptxas schedules while the step's PV GEMM is in
flight, per step of a Gluon build's SASS: the MUFU.EX2 between the wait for S (`WARPGROUP.DEPBAR.LE gsb0,
0x1`) and the wait for PV (`... 0x0`), and after it (session 9: 0 of 66 at D=128 n128s2).

    PYTHONPATH=src python3 scripts/sass_overlap.py [--d 128] [--causal] [--config _GLUON_N128S2] [--kw '{}']
"""
import argparse
import ast
import re

import torch

from dhpfa import audit
from dhpfa.audit import compile as C
from dhpfa.kernels import variants as V


def overlap_per_step(sass: str):
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--config", default="_GLUON_N128S2", help="a (kernel, TileConfig) name in variants")
    ap.add_argument("--kw", default="{}", help="extra kernel keyword arguments, a Python dict literal")
    a = ap.parse_args()
    kernel, config = getattr(V, a.config)
    fn, args, kwargs = audit.variant_launch(V.Variant(kernel, config, torch.bfloat16, a.d, a.causal))
    sass = C.sass_text(C.compile_offline(fn, args, dict(kwargs, **ast.literal_eval(a.kw)), use_cache=False).cubin)
    print("(exponentials while PV is in flight, after its wait) per step:", overlap_per_step(sass))


if __name__ == "__main__":
    main()
