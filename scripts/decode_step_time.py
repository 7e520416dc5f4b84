"""Decode steps through flash_attn_with_kvcache (GQA 32 / 8, D=256 16 / 8; full caches; the API's split rule), CUDA-graph
replay, best of --rounds medians; saves every output under --out/outs.pt so that two source trees' steps (run in
alternating processes, e.g. build/old_src) can be compared bitwise and by time.

    PYTHONPATH=src:scripts python3 scripts/decode_step_time.py --out DIR [--rounds 5]
    python3 scripts/decode_step_time.py --compare DIR_A DIR_B
"""
import argparse
import json
import os
import statistics

import torch

SHAPES = ((1, 32768), (4, 16384), (8, 4096), (16, 8192), (32, 4096), (64, 2048))


def run(a):
    import dhpfa
    from decode_cases import decode_case
    from dhpfa.measure.bench import graph_ms
    os.makedirs(a.out, exist_ok=True)
    g = torch.Generator(device="cuda").manual_seed(36)
    outs, rows = {}, []
    for d in (64, 128, 256):
        for b, n in SHAPES:
            q, kc, vc, lens = decode_case(b, n, d, g)

            def fn():
                return dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens)
            key = f"D={d} B={b} keys={n}"
            outs[key] = fn().cpu()
            us = statistics.median(graph_ms(fn, [()], replays=20) for _ in range(a.rounds)) * 1000
            rows.append(dict(case=key, us=us))
            print(f"{key} {us:.1f} us", flush=True)
            del kc, vc
    torch.save(outs, os.path.join(a.out, "outs.pt"))
    with open(os.path.join(a.out, "decode_step_time.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)


def compare(dirs):
    outs = [torch.load(os.path.join(d, "outs.pt")) for d in dirs]
    times = [{r["case"]: r["us"] for r in json.load(open(os.path.join(d, "decode_step_time.json")))["rows"]}
             for d in dirs]
    for key in outs[0]:
        same = all(torch.equal(outs[0][key], o[key]) for o in outs[1:])
        print(f"{key}: " + " / ".join(f"{t[key]:.1f}" for t in times) + f" us  bitwise {same}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--compare", nargs="+")
    a = ap.parse_args()
    if a.compare:
        compare(a.compare)
    else:
        run(a)


if __name__ == "__main__":
    main()
