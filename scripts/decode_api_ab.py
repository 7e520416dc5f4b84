"""One decode step (one query per sequence, grouped-query heads 32 / 8) five ways, CUDA-graph replay, interleaved
rounds: dhpfa.flash_attn_func on (B, 1, H, D) / (B, N, H_kv, D) tensors (the dense route: packed grouped heads, key
splits met in a tree), dhpfa.flash_attn_with_kvcache on the same tensors as a full cache with a tensor of lengths (the
portable varlen kernel, split and combined) and with an int (equal caches: the dense route inside a graph since session
37), and torch SDPA (enable_gqa) under its cuDNN and flash backends, for scale. us per step, K / V TB/s, relative
difference from float64 on the first sequence (of an eager call).

    PYTHONPATH=src:scripts python3 scripts/decode_api_ab.py [--rounds 5] [--d 64,128] [--shapes 1:4096,...] [--out DIR]
"""
import argparse
import json
import os
import statistics

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import dhpfa
from decode_cases import decode_case, interleaved_graph_ms
from dhpfa.reference import attention_ref

SHAPES = ((1, 4096), (1, 32768), (8, 4096), (8, 16384), (32, 4096), (64, 2048))


def kv_with(settings, q, k, v, lens, **kw):
    """flash_attn_with_kvcache with variants' attributes set to `settings` for this call (the checked path: plans dropped
    before and after, so the API's own calls keep theirs): SWAP_DECODE_KV_FILL (session 67: a pair count; session 68:
    a multiple of the SMs' pairs), SWAP_DECODE_KV_WHOLE (session 68), decode_kv_choice (kv_forced's)."""
    from dhpfa import api
    from dhpfa.kernels import variants
    saved = {name: getattr(variants, name) for name in settings}
    for name, value in settings.items():
        setattr(variants, name, value)
    api._PLANS.clear()
    try:
        return dhpfa.flash_attn_with_kvcache(q, k, v, cache_seqlens=lens, **kw)
    finally:
        for name, value in saved.items():
            setattr(variants, name, value)
        api._PLANS.clear()


def kv_forced(build, n, q, k, v, lens):
    """kv_with decode_kv_choice forced to (build(dtype, head_dim, variants), n), whatever the rule says: session 68's
    --kv-parts (the merged build, or from swap_decode_split's count the split one, in n parts), session 69's
    --kv-stream (the stream build's KV-cache form in n programs)."""
    from dhpfa.kernels import variants
    return kv_with(dict(decode_kv_choice=lambda dtype, head_dim, *_: (build(dtype, head_dim, variants), n)),
                   q, k, v, lens)


def parts_build(parts):
    """kv_forced's build for `parts` parts: the merged KV-cache build, the split one from swap_decode_split's count."""
    return lambda dtype, d, vs: vs.decode_kv_variant(dtype, d, bool(vs.swap_decode_split(d, parts)))


def stream_build(dtype, d, vs):
    """kv_forced's build: the stream build's KV-cache form (its flat schedule)."""
    return vs.decode_kv_variant(dtype, d, False, stream=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--d", default="64,128")
    ap.add_argument("--out", default="out")
    ap.add_argument("--kv-fill", type=float, default=0,
                    help="(session 67) also time with_kvcache with variants.SWAP_DECODE_KV_FILL set to this (session "
                         "68: a multiple of the SMs' pairs, the shipped 2 by default) (plans dropped around each call)")
    ap.add_argument("--kv-nofill", action="store_true",
                    help="(session 68) also time with_kvcache with the fill off (SWAP_DECODE_KV_FILL = 0: the varlen "
                         "route where no dense parts rule is)")
    ap.add_argument("--kv-nowhole", action="store_true",
                    help="(session 68) also time with_kvcache with SWAP_DECODE_KV_WHOLE off")
    ap.add_argument("--kv-stream", type=int, default=0,
                    help="(session 69) also time with_kvcache on the stream build's KV-cache form in this many programs "
                         "(kv_forced: decode_kv_choice forced)")
    ap.add_argument("--kv-nostream", action="store_true",
                    help="(session 69) also time with_kvcache with SWAP_DECODE_KV_STREAM off")
    ap.add_argument("--half", action="store_true",
                    help="(session 69) also time with_kvcache on the same caches filled to half their rows (lengths // "
                         "2; with --kv-nostream also with SWAP_DECODE_KV_STREAM off)")
    ap.add_argument("--odd", action="store_true",
                    help="(session 69) also time with_kvcache with every length one key short of the cache (a last "
                         "block that crosses the sequence's end: the KV-cache builds zero V's rows past it)")
    ap.add_argument("--paged", type=int, default=0,
                    help="(session 68) also time with_kvcache on the same caches as pages of this many rows (a "
                         "block_table over shuffled pages: the varlen route while variants.SWAP_DECODE_KV_PAGED is off), "
                         "and with the paged swap forms on (with_kvcache_paged_swap: SWAP_DECODE_KV_PAGED and "
                         "SWAP_DECODE_KV_PAGED_PARTS)")
    ap.add_argument("--kv-parts", default="",
                    help="(session 68) comma-separated part counts: also time with_kvcache on the KV-cache builds in "
                         "that many parts (kv_pN; kv_forced: decode_kv_choice forced)")
    ap.add_argument("--shapes", default=",".join(f"{b}:{n}" for b, n in SHAPES),
                    help="(session 67) comma-separated B:keys cells")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = torch.Generator(device="cuda").manual_seed(36)
    res = {"device": torch.cuda.get_device_name(), "rows": []}
    for d in (int(x) for x in a.d.split(",")):
        for b, n in (tuple(int(x) for x in c.split(":")) for c in a.shapes.split(",")):
            q, k, v, lens = decode_case(b, n, d, g)
            qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
            nbytes = 2 * k.numel() * k.element_size()

            def sdpa(backend):
                def fn():
                    with sdpa_kernel(backend):
                        return F.scaled_dot_product_attention(qt, kt, vt, enable_gqa=True).transpose(1, 2)
                return fn
            fns = {"flash_attn_func": lambda: dhpfa.flash_attn_func(q, k, v),
                   "with_kvcache": lambda: dhpfa.flash_attn_with_kvcache(q, k, v, cache_seqlens=lens),
                   # an int cache_seqlens: equal caches, the dense route inside a graph (session 37)
                   "with_kvcache_int": lambda: dhpfa.flash_attn_with_kvcache(q, k, v, cache_seqlens=n),
                   "sdpa_cudnn": sdpa(SDPBackend.CUDNN_ATTENTION), "sdpa_flash": sdpa(SDPBackend.FLASH_ATTENTION)}
            if a.kv_fill:
                fns["with_kvcache_fill"] = lambda: kv_with(dict(SWAP_DECODE_KV_FILL=a.kv_fill), q, k, v, lens)
            if a.kv_nowhole:
                fns["with_kvcache_nowhole"] = lambda: kv_with(dict(SWAP_DECODE_KV_WHOLE=False), q, k, v, lens)
            if a.kv_nofill:
                fns["with_kvcache_nofill"] = lambda: kv_with(dict(SWAP_DECODE_KV_FILL=0), q, k, v, lens)
            if a.kv_nostream:
                fns["with_kvcache_nostream"] = lambda: kv_with(dict(SWAP_DECODE_KV_STREAM=False), q, k, v, lens)
            if a.kv_stream:
                fns["kv_stream"] = lambda: kv_forced(stream_build, a.kv_stream, q, k, v, lens)
            refs = {}
            if a.odd:
                short = lens - 1
                fns["odd"] = lambda: dhpfa.flash_attn_with_kvcache(q, k, v, cache_seqlens=short)
                refs["odd"] = attention_ref(q[:1], k[:1, :n - 1], v[:1, :n - 1], d ** -0.5)[0][0, 0]
            if a.half:
                half = lens // 2
                n0 = int(half[0])
                fns["half"] = lambda: dhpfa.flash_attn_with_kvcache(q, k, v, cache_seqlens=half)
                refs["half"] = attention_ref(q[:1], k[:1, :n0], v[:1, :n0], d ** -0.5)[0][0, 0]
                kh, vh = (t[:, :n0].contiguous() for t in (k, v))  # (the dense route on caches of that length)
                fns["half_dense"] = lambda: dhpfa.flash_attn_func(q, kh, vh)
                refs["half_dense"] = refs["half"]
                if a.kv_nostream:
                    fns["half_nostream"] = lambda: kv_with(dict(SWAP_DECODE_KV_STREAM=False), q, k, v, half)
                    refs["half_nostream"] = refs["half"]
            if a.paged and n % a.paged == 0:
                page = a.paged
                perm = torch.randperm(b * n // page, device="cuda", generator=g)
                inv = torch.argsort(perm)
                kp, vp = (t.reshape(b * n // page, page, *t.shape[2:])[inv] for t in (k, v))  # flat page f at perm[f]
                table = perm.reshape(b, n // page).to(torch.int32)
                fns["with_kvcache_paged"] = lambda: dhpfa.flash_attn_with_kvcache(q, kp, vp, cache_seqlens=lens,
                                                                                  block_table=table)
                # (session 69 calls 6-9: with the paged forms on by default, this column was "with_kvcache_paged_varlen",
                # the forms off; they ship off from the session's end, so the column now turns them on)
                fns["with_kvcache_paged_swap"] = lambda: kv_with(dict(SWAP_DECODE_KV_PAGED=True,
                                                                      SWAP_DECODE_KV_PAGED_PARTS=True), q, kp, vp, lens,
                                                                 block_table=table)
            for p in (int(x) for x in a.kv_parts.split(",") if x):
                fns[f"kv_p{p}"] = lambda p=p: kv_forced(parts_build(p), p, q, k, v, lens)
            ref = attention_ref(q[:1], k[:1], v[:1], d ** -0.5)[0][0, 0]  # (H, D), float64, the first sequence
            errs, ok = {}, {}
            for name, fn in list(fns.items()):
                try:
                    out = fn()
                    torch.cuda.synchronize()
                    r = refs.get(name, ref)
                    errs[name] = ((out[0, 0].double().cpu() - r).norm() / r.norm()).item()
                    ok[name] = True
                except Exception as e:  # a backend that does not take the shape
                    errs[name], ok[name] = f"{type(e).__name__}: {str(e)[:80]}", False
            names = [nm for nm in fns if ok[nm]]
            times = interleaved_graph_ms(names, lambda nm: None, fns, a.rounds)
            row = dict(d=d, b=b, keys=n, errors=errs, us={nm: statistics.median(ts) * 1000 for nm, ts in times.items()})
            res["rows"].append(row)
            print(f"D={d} B={b} keys={n} " + "  ".join(
                f"{nm} {row['us'][nm]:.1f} us ({nbytes / row['us'][nm] / 1e6:.2f} TB/s, err {errs[nm]:.1e})"
                for nm in names) + "".join(f"  {nm}: {errs[nm]}" for nm in fns if not ok[nm]), flush=True)
            del k, v
    with open(os.path.join(a.out, "decode_api_ab.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
