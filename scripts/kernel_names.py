"""The CUDA kernels a call of an SDPA backend (or dhpfa) launches and their device times, by the torch profiler: which
tiles a peer picked (cuDNN's kernel names carry their tile shape).

    PYTHONPATH=src python3 scripts/kernel_names.py --cases 128:32:16:512:causal,256:32:16:512:causal --out DIR
"""
import argparse
import json
import os

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.profiler import ProfilerActivity, profile

import dhpfa

BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default="128:32:16:512:causal")
    ap.add_argument("--out", default="out")
    a = ap.parse_args()
    res = []
    for case in a.cases.split(","):
        d, b, h, s, *rest = case.split(":")
        d, b, h, s, causal = int(d), int(b), int(h), int(s), bool(rest and rest[0] == "causal")
        q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
        calls = {name: (lambda be=be: _sdpa(be, q, k, v, causal)) for name, be in BACKENDS.items()}
        calls["dhpfa"] = lambda: dhpfa.flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                       causal=causal)
        for name, fn in calls.items():
            fn()
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                fn()
                torch.cuda.synchronize()
            kernels = [dict(name=e.name, us=round(e.device_time, 2)) for e in prof.events()
                       if e.device_type == torch.autograd.DeviceType.CUDA and e.device_time > 0]
            res.append(dict(case=case, backend=name, kernels=kernels))
            print(case, name, [(x["name"][:110], x["us"]) for x in kernels], flush=True)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "kernel_names.json"), "w") as f:
        json.dump(res, f, indent=1)


def _sdpa(be, q, k, v, causal):
    with sdpa_kernel(be):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)


if __name__ == "__main__":
    main()
