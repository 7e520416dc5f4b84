"""Hardware counters of flash_attn_varlen_func across input classes and repeats (dhpfa.measure.counters' protocol for
the varlen kernel): one packed batch of mixed lengths (offsets fixed: public), each dudect class and five repeats of
one input, one profiled call each.

    PYTHONPATH=src python3 scripts/varlen_counters.py --out $OUT/counters [--d 128] [--causal] [--page 256]

--page P: the keys and values in pages of P rows behind a block table (public, a fixed shuffle of the pages), as a
paged cache (on Hopper the paged Gluon build when P is a multiple of its key block).
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from dhpfa.measure import counters  # noqa: E402

LENS = [1000, 37, 2048, 513, 1, 300]
DECODE_LENS_K = [3000, 17, 700, 4096, 1, 250, 1500, 64]  # --decode: one query per sequence, 32 query heads over 8


def paged_layout(lens_k, page, seed=3):
    """(number of pages, block table (batch, most pages) int32 on the GPU): sequence b's pages, ceil(len / page) of
    them, are a fixed shuffle of the cache's; unused table entries 0 (the kernel never reads them)."""
    import random

    import torch
    need = [-(-n // page) for n in lens_k]
    order = list(range(sum(need)))
    random.Random(seed).shuffle(order)
    table = torch.zeros(len(lens_k), max(need), dtype=torch.int32)
    at = 0
    for b, n in enumerate(need):
        table[b, :n] = torch.tensor(order[at:at + n], dtype=torch.int32)
        at += n
    return sum(need), table.cuda()


def child(d, causal, window, softcap, decode, page=0, kvcache=None, flush_l2=False):
    import torch

    import dhpfa
    from dhpfa.measure.leak import CLASSES, make_class_inputs
    from varlen_bench import offsets
    if kvcache:  # a planned flash_attn_with_kvcache decode step (kvcache_leak.step_fn: new tokens, its layout)
        from kvcache_leak import step_fn
        fn, shape = step_fn(d, kvcache, rotary=decode)
    else:
        lens_q, lens_k = ([1] * len(DECODE_LENS_K), DECODE_LENS_K) if decode else (LENS, LENS)
        h = 32 if decode else 2048 // d
        hk = 8 if decode else h
        cu_q, cu_k = offsets(lens_q), offsets(lens_k)
        total_k, table = paged_layout(lens_k, page) if page else (sum(lens_k), None)
        if page:
            total_k *= page
        shape = (1, h, sum(lens_q), d, total_k, hk)
    inputs = make_class_inputs(shape, torch.bfloat16, pool_size=1, seed=1)
    bufs = [torch.empty(sh, device="cuda", dtype=torch.bfloat16)
            for sh in ((1,) + shape[1:4], (1, shape[5], shape[4], d), (1, shape[5], shape[4], d))]

    def call():  # (1, H, total, D) buffers viewed as (total, H, D); paged: k, v as (pages, page, H_kv, D)
        if kvcache:
            return fn(*bufs)
        q, k, v = (t.transpose(1, 2)[0] for t in bufs)
        if page:
            k, v = k.unflatten(0, (-1, page)), v.unflatten(0, (-1, page))
        return dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
                                            window_size=window, softcap=softcap, block_table=table)
    labels = list(CLASSES) + list(counters.REPEATS)
    for dst, src in zip(bufs, inputs["random"][0]):
        dst.copy_(src)
    call()
    call()  # (a kvcache step: its plan kept by the first call, taken from the second)
    torch.cuda.synchronize()
    flush = torch.empty(256 * 2 ** 20, dtype=torch.uint8, device="cuda") if flush_l2 else None
    for lab in labels:
        for dst, s in zip(bufs, inputs["fixed-random" if lab.startswith("repeat") else lab][0]):
            dst.copy_(s)
        if flush is not None:  # the copy's dirty lines written back now, L2 left holding the same pattern every time
            flush.fill_(0)
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        call()
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
    from dhpfa import api
    kernels = sorted({p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)
                      and p.variant is not None} | {"kvcache plan" for p in api._PLANS.values()
                                                    if isinstance(p, api._KvcachePlan)})
    print(json.dumps({"labels": labels, "kernels": kernels}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out/counters")
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--window", default="-1,-1", help="left,right (flash-attn's window_size)")
    ap.add_argument("--softcap", type=float, default=0.0)
    ap.add_argument("--decode", action="store_true", help="decode steps (grouped heads, split across programs)")
    ap.add_argument("--page", type=int, default=0, help="keys in pages of this many rows (0: contiguous)")
    ap.add_argument("--kvcache", default="", help="contiguous | paged: a planned flash_attn_with_kvcache decode step "
                    "with a new token (kvcache_leak.step_fn; --decode adds rotary embeddings)")
    ap.add_argument("--flush-l2", action="store_true", help="write 256 MB of zeros after each input copy (outside the "
                    "profiled range), so the copy's write-backs do not fall in the profiled call")
    ap.add_argument("--child", action="store_true")
    a = ap.parse_args()
    window = tuple(int(x) for x in a.window.split(","))
    if a.child:
        return child(a.d, a.causal, window, a.softcap, a.decode, a.page, a.kvcache, a.flush_l2)
    from dhpfa.measure.leak import CLASSES
    os.makedirs(a.out, exist_ok=True)
    metrics = counters.METRICS
    tag = f"d{a.d}{'-causal' if a.causal else ''}" + (f"-w{a.window}" if window != (-1, -1) else "") + \
        (f"-cap{a.softcap:g}" if a.softcap else "") + ("-decode" if a.decode else "") + \
        (f"-page{a.page}" if a.page else "") + (f"-kvcache-{a.kvcache}" if a.kvcache else "") + \
        ("-flush" if a.flush_l2 else "")
    log = os.path.join(a.out, f"ncu-varlen-{tag}.csv")
    cmd = [counters.ncu_path(), "--clock-control", "none", "--profile-from-start", "off", "--csv", "--print-units",
           "base", "--log-file", log, "--metrics", ",".join(metrics), sys.executable, os.path.abspath(__file__),
           "--child", "--d", str(a.d), f"--window={a.window}", "--softcap", str(a.softcap), "--page", str(a.page),
           "--kvcache", a.kvcache] + (["--flush-l2"] if a.flush_l2 else []) + \
        (["--causal"] if a.causal else []) + (["--decode"] if a.decode else [])
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if res.returncode != 0:
        print(res.stdout[-2000:], res.stderr[-2000:])
        sys.exit(1)
    info = json.loads([ln for ln in res.stdout.splitlines() if ln.startswith("{")][-1])
    labels = info["labels"]
    print("kernels:", info.get("kernels"))
    with open(log) as f:
        per_call = counters.group_calls(counters.parse_ncu_csv(f.read(), set(metrics)), labels)
    result = dict(per_call=per_call, kernels=info.get("kernels"), **counters.compare(per_call, CLASSES))
    name = f"varlen {tag} {'kvcache_leak' if a.kvcache else DECODE_LENS_K if a.decode else LENS}"
    print(counters.format_table({name: result}))
    with open(log.replace(".csv", ".json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
