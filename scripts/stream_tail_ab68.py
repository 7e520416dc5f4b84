"""(Session 68) The stream build's tail with each pair's verdict anded over the warps (sm90_decode, the fix) against
session 67's (kernels/_sm90_decode_s67.py: a copy of HEAD's module, untracked, made for this run only): graph replay of
stream_decode at the API's program counts, interleaved rounds; us and the ratio.
    PYTHONPATH=src:scripts python3 scripts/stream_tail_ab68.py [--rounds 7] [--out DIR]
"""
import argparse
import json
import os
import statistics

import torch

from decode_cases import interleaved_graph_ms
from dhpfa.kernels import _sm90_decode_s67 as old
from dhpfa.kernels import dispatch, sm90_decode, variants

CELLS = ((34, 32, 4, 4096, 128), (45, 32, 4, 16384, 128), (68, 32, 4, 16384, 128), (34, 32, 4, 4096, 64),
         (34, 32, 4, 16384, 64), (40, 64, 4, 16384, 128), (17, 32, 8, 2048, 64), (40, 32, 4, 20000, 64))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = torch.Generator(device="cuda").manual_seed(68)
    rows = []
    for b, h, hk, sk, d in CELLS:
        choice = variants.decode_choice(torch.bfloat16, d, b, h, hk, sk, torch.cuda.get_device_properties(0).multi_processor_count)
        if choice is None or "stream" not in choice[0].kernel or variants.stream_pair_units(choice[0]):
            print(f"({b},{h},{hk},{sk},{d}): not a stream build with arrivals ({choice and choice[0].name})")
            continue
        n = choice[1]
        q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
        k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        fns = {"fixed": lambda: sm90_decode.stream_decode(q, k, v, n)[0],
               "s67": lambda: old.stream_decode(q, k, v, n)[0]}
        outs = {}
        for nm, fn in fns.items():  # (the kept launchers' key names no module: dropped before each)
            dispatch._decode_launchers.clear()
            outs[nm] = fn()
        same = torch.equal(outs["fixed"], outs["s67"])
        times = interleaved_graph_ms(list(fns), lambda nm: dispatch._decode_launchers.clear(), fns, a.rounds)
        us = {nm: statistics.median(t) * 1000 for nm, t in times.items()}
        rows.append(dict(cell=[b, h, hk, sk, d], n_prog=n, build=choice[0].name, us=us, equal_bits=same))
        print(f"({b},{h},{hk},1,{sk},{d}) n={n} fixed {us['fixed']:.2f} us  s67 {us['s67']:.2f} us  "
              f"x{us['s67'] / us['fixed']:.3f}  bits equal {same}", flush=True)
    with open(os.path.join(a.out, "stream_tail_ab.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
