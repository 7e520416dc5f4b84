"""Sweep kernels x tile configs on the device, beside the SDPA peers; writes JSON and a table.

    python scripts/tune_sm90.py --out DIR

Used to choose SM90_DEFAULTS in src/dhpfa/kernels/variants.py; results go to docs/perf-log.md.
"""
import argparse
import json
import os
import sys
import time

import torch

from dhpfa.kernels import triton_fwd, variants
from dhpfa.kernels.variants import TileConfig
from dhpfa.measure import bench

CANDIDATES = {
    64: [TileConfig(128, 128, 8, 3), TileConfig(128, 64, 4, 3), TileConfig(128, 64, 8, 3),
         TileConfig(128, 128, 8, 4), TileConfig(64, 128, 4, 3)],
    128: [TileConfig(128, 128, 8, 3), TileConfig(128, 64, 8, 3), TileConfig(128, 64, 4, 3),
          TileConfig(128, 128, 8, 2), TileConfig(128, 64, 8, 4)],
    256: [TileConfig(128, 64, 8, 2), TileConfig(128, 64, 8, 3), TileConfig(64, 64, 4, 2),
          TileConfig(128, 32, 8, 3), TileConfig(64, 128, 4, 2)],
}


# Short sequences (S <= 1024): smaller tiles so two CTAs share an SM and the pipeline fills sooner.
SHORT = {
    64: [TileConfig(128, 64, 8, 3), TileConfig(64, 64, 4, 3), TileConfig(64, 128, 4, 2), TileConfig(128, 64, 4, 2)],
    128: [TileConfig(128, 128, 8, 3), TileConfig(64, 64, 4, 3), TileConfig(64, 128, 4, 2),
          TileConfig(128, 64, 8, 2), TileConfig(128, 64, 4, 2)],
    256: [TileConfig(128, 64, 8, 3), TileConfig(64, 64, 4, 2), TileConfig(64, 32, 4, 3), TileConfig(128, 32, 8, 2)],
}


def dhpfa_fn(kernel, config):
    def fn(q, k, v, causal):
        # q, k, v in (B, H, S, D); the kernels take (B, S, H, D) views.
        b, h, s, d = q.shape
        out = torch.empty_like(q)
        lse = torch.empty((b, h, s), device=q.device, dtype=torch.float32)
        triton_fwd.launch(kernel, q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out.transpose(1, 2),
                          lse, d ** -0.5, causal, 0, config)
        return out
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--seqs", default="2048,16384")
    ap.add_argument("--set", choices=("long", "short"), default="long", help="candidate set")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    peers = {k: v for k, v in bench.peer_kernels().items() if k != "dhpfa"}
    for d, configs in (SHORT if args.set == "short" else CANDIDATES).items():
        for s in map(int, args.seqs.split(",")):
            for causal in (False, True):
                case = bench.Case(bench.TOKENS // s, bench.HIDDEN // d, s, d, causal)
                kernels = dict(peers)
                for kern in variants.KERNELS:
                    for cfg in configs:
                        kernels[f"{kern}:{cfg.label()}"] = dhpfa_fn(kern, cfg)
                t = time.time()
                res = bench.bench_case(case, kernels, rounds=5)
                ok = {k: v["tflops"] for k, v in res.items() if "tflops" in v}
                best = max((k for k in ok if ":" in k), key=ok.get, default=None)
                rows.append({"case": case.label(), "results": res, "best": best})
                peer_s = " ".join(f"{k}={ok[k]:.0f}" for k in peers if k in ok)
                print(f"{case.label():<32} best {best} {ok.get(best, 0):.0f} | {peer_s} | {time.time() - t:.0f}s",
                      flush=True)
                for k in sorted(ok, key=ok.get, reverse=True)[:6]:
                    print(f"      {k:<36} {ok[k]:6.1f}")
                errs = {k: v["error"] for k, v in res.items() if "error" in v and ":" in k}
                for k, e in errs.items():
                    print(f"      ERROR {k}: {e}")
    with open(os.path.join(args.out, f"tune-{args.set}.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
