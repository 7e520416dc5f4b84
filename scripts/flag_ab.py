"""A/B of a module-level switch of sm90_fwd (e.g. S_AHEAD, session 42) in CUDA-graph replay: the tree's module against a
copy with the switch flipped (small_tiles.module_variant writes it as kernels/_ab_<name>.py), the same tile
configurations, interleaved rounds in random order, per-round ratios (> 1: the tree's faster); both modules' outputs
checked against float64 on poisoned outputs first (sm90_check.check), at each case's shape and at odd shapes.

    PYTHONPATH=src:scripts python3 scripts/flag_ab.py --flag S_AHEAD --out DIR [--rounds 15] [--cases small]
"""
import argparse
import json
import os
import re
import statistics

import torch

from ab_sm90 import CONFIGS
from dhpfa.kernels import sm90_fwd
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from sm90_check import check, gluon_fn
from small_tiles import module_variant

X1 = CONFIGS["m64n128s2_x1_ov"][1]  # the few-program one-consumer build (variants.SM90_FEW_PROGRAMS_MID)


def kv(parts, block_n=128):
    return dict(block_m=64, block_n=block_n, stages=2, warp_specialized=True, split_kv=parts, pv_overlap=True)


SK = dict(block_m=64, block_n=64, stages=2, warp_specialized=True, split=2, split_k=True)  # variants._SPLIT_K
SK_UP = dict(SK, paired=False)  # variants._SPLIT_K_UNPAIRED (causal)
# (B, H, S_q, D, causal, S_k or None, tiles[, {name: tiles} also timed with the tree's module in the same rounds])
CASES = {
    "small": [(1, 8, 512, 64, False, None, X1), (2, 8, 512, 64, False, None, X1), (1, 8, 768, 64, False, None, X1),
              (1, 8, 256, 64, False, None, X1), (1, 4, 2048, 64, False, None, X1), (1, 8, 512, 64, True, None, X1),
              (1, 8, 512, 128, False, None, X1), (1, 8, 64, 64, False, 8192, kv(4))],
    # session 42: SPLIT_K's hand-over (HANDOVER_SWIZZLE), beside the API's one-consumer build at 512 keys
    "splitk": [(1, 8, 512, 64, False, None, SK, {"x1": X1}), (1, 8, 512, 128, False, None, SK, {"x1": X1}),
               (1, 8, 1024, 64, False, None, SK), (1, 8, 2048, 64, False, None, SK), (1, 8, 1024, 128, False, None, SK),
               (1, 16, 1024, 64, False, None, SK), (1, 16, 1024, 128, False, None, SK),
               (1, 4, 2048, 64, True, None, SK_UP)],
}
ODD = [(1, 100, 100), (2, 333, 1000), (1, 64, 129), (1, 257, 640), (3, 1, 3000)]  # (B, S_q, S_k), 4 heads


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flag", required=True, help="a module-level NAME = gl.constexpr(True/False) of sm90_fwd")
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--cases", default="small", choices=sorted(CASES))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    m = re.search(rf"^{args.flag} = gl.constexpr\((True|False)\)", open(sm90_fwd.__file__).read(), re.M)
    if m is None:
        raise SystemExit(f"--flag {args.flag}: no line `{args.flag} = gl.constexpr(True)` or `(False)` in "
                         f"{sm90_fwd.__file__} (apply the experiment's diff from docs/experiments first)")
    flag = m.group(1) == "True"
    other = module_variant(sm90_fwd, m.group(0), f"{args.flag} = gl.constexpr({not flag})", f"flag{int(not flag)}")
    mods = {"tree": sm90_fwd, "flipped": other}
    peers = bench.peer_kernels()
    res, ok = [], True
    odd_checked = set()  # (tiles, head dim) whose odd shapes the tree's module has passed: each checked once
    for b, h, s, d, causal, sk, tiles, *extra in CASES[args.cases]:
        key = (json.dumps(tiles, sort_keys=True), d)
        # (B, S_q, S_k, H, H_kv, causal flags, modules): the case's own shape with the tree's module (both causal flags)
        # and the flipped one (the case's flag); odd shapes (GQA, both flags) with the tree's, once per configuration
        # and head dim (the same checks every case repeated before)
        checks = [(b, s, sk or s, h, h, (False, True), {"tree": sm90_fwd}),
                  (b, s, sk or s, h, h, (causal,), {"flipped": other})]
        if key not in odd_checked:
            odd_checked.add(key)
            checks += [(ob, osq, osk, 4, 2, (False, True), {"tree": sm90_fwd}) for ob, osq, osk in ODD]
        for cb, csq, csk, ch, chk, flags, cmods in checks:
            for mname, mod in cmods.items():
                for c in flags:
                    err, bad = check(cb, csq, csk, ch, chk, d, c, torch.bfloat16, tiles, launch=mod.launch)
                    good = err < 1e-2 and not bad
                    ok &= good
                    if not good:
                        print(f"FAIL {mname} {tiles} {(cb, csq, csk, ch, chk)} D{d} causal={c}: {err:.2e} {bad}",
                              flush=True)
        kernels = {n: gluon_fn(tiles, launch=m_.launch) for n, m_ in mods.items()}
        for name, t in (extra[0] if extra else {}).items():
            kernels[f"tree/{name}"] = gluon_fn(t, launch=sm90_fwd.launch)
        kernels["sdpa_cudnn"] = peers["sdpa_cudnn"]
        case = bench.Case(b, h, s, d, causal)
        sets = bench.make_inputs(case, 4, seq_k=sk)
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, graph=True, batch_ms=5.0)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        ratio = statistics.median(a / b_ for a, b_ in zip(times["flipped"], times["tree"]))
        res.append(dict(case=[b, h, s, d, causal, sk], tiles={k: v for k, v in tiles.items()}, us=us,
                        tree_speedup=ratio))
        print(f"{(b, h, s, d, 'causal' if causal else '', sk or '')} {tiles.get('split_kv', '')}: "
              + "  ".join(f"{n}={u:.2f}us" for n, u in us.items()) + f"  tree x{ratio:.3f}", flush=True)
    with open(os.path.join(args.out, f"flag_ab_{args.flag}.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), flag=args.flag, tree_value=flag, results=res, correct=ok),
                  f, indent=1)
    print("correctness:", "all OK" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
