"""flash_attn_varlen_func on the device: speed beside FlashAttention-2's varlen kernel (torch's
aten._flash_attention_forward with cumulative offsets) and beside what a caller without varlen runs (the batch padded
to its longest sequence: dhpfa's dense call and SDPA cuDNN), host time of an eager call, and a dudect-style leak test.

    PYTHONPATH=src python3 scripts/varlen_bench.py --out $OUT/varlen [--rounds 9] [--leak-samples 1000]

TFLOPS count only the useful work: 4 * D * H * (visible (query, key) pairs summed over the sequences), the same for
every kernel (the padded calls' extra rows are their cost). Times are CUDA-graph replays (bench.interleaved_ms,
graph=True, kernels interleaved in random order per round), so host time is out of them; it is reported apart.
"""
import argparse
import contextlib
import json
import os
import random
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
import dhpfa  # noqa: E402
from dhpfa.measure import leak, stats  # noqa: E402
from dhpfa.measure.bench import interleaved_ms  # noqa: E402


def workload(kind, seed=0):
    """Sequence lengths of one packed batch (about 16K tokens)."""
    rng = random.Random(seed)
    if kind == "uniform1k":
        return [1024] * 16
    if kind.startswith("upto"):  # lengths drawn from 16 .. N (session 30: where the Hopper varlen kernel starts to win)
        lo, hi = 16, int(kind[4:])
    else:
        lo, hi = {"mixed": (64, 4096), "short": (16, 512)}[kind]
    lens = []
    while sum(lens) < 16384:
        lens.append(rng.randint(lo, hi))
    return lens


def visible(sq, sk, causal):
    if not causal:
        return sq * sk
    return sum(min(sk, max(0, i + sk - sq + 1)) for i in range(sq))


def offsets(lens):
    cu = [0]
    for n in lens:
        cu.append(cu[-1] + n)
    return torch.tensor(cu, dtype=torch.int32, device="cuda")


def case(kind, d, causal, rounds, n_sets=3, hopper_configs=()):
    from dhpfa import api as _api
    _api._PLANS.clear()  # (api_kernels below: this case's plans only)
    h, hk = 2048 // d, 2048 // d
    lens = workload(kind)
    total, mx = sum(lens), max(lens)
    cu = offsets(lens)
    g = torch.Generator(device="cuda").manual_seed(d)
    packed = [tuple(torch.randn(total, hh, d, device="cuda", dtype=torch.bfloat16, generator=g) for hh in (h, hk, hk))
              for _ in range(n_sets)]
    padded = []
    for q, k, v in packed:  # (B, max, H, D), each sequence at the top of its row block, zeros below
        pq = torch.zeros(len(lens), mx, h, d, device="cuda", dtype=torch.bfloat16)
        pk, pv = (torch.zeros(len(lens), mx, hk, d, device="cuda", dtype=torch.bfloat16) for _ in range(2))
        c = cu.tolist()
        for b in range(len(lens)):
            pq[b, :lens[b]], pk[b, :lens[b]], pv[b, :lens[b]] = q[c[b]:c[b + 1]], k[c[b]:c[b + 1]], v[c[b]:c[b + 1]]
        padded.append((pq, pk, pv))
    from torch.nn.attention import SDPBackend, sdpa_kernel

    def fa2_varlen(q, k, v, causal):
        return torch.ops.aten._flash_attention_forward(q, k, v, cu, cu, mx, mx, 0.0, causal, False)[0]

    def cudnn_padded(q, k, v, causal):
        with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
            return torch.nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                                                    v.transpose(1, 2), is_causal=causal)
    from dhpfa import api
    from dhpfa.kernels import dispatch, variants
    portable_variant = variants.varlen_variant(torch.bfloat16, d, causal)

    def portable(q, k, v, causal):  # the portable varlen kernel on the same call (what the API ran before session 30)
        out = torch.empty_like(q)
        dispatch.launch_varlen(portable_variant, q, k, v, out, torch.empty(h, total, device="cuda"), cu, cu, mx,
                               d ** -0.5)
        return out
    hopper_variant = variants.varlen_sm90_variant(torch.bfloat16, d, causal) if d in variants.VARLEN_SM90 else None

    def hopper(q, k, v, causal):  # the Hopper varlen kernel on the same call, whatever the API's rule says
        out = api._varlen_out(q, hopper_variant.config.block_m // 2)
        dispatch.launch_varlen(hopper_variant, q, k, v, out, torch.empty(h, total, device="cuda"), cu, cu, mx,
                               d ** -0.5)
        return out
    kernels = {
        "dhpfa_varlen": lambda q, k, v, causal: dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, mx, mx, causal=causal),
        "hopper_varlen": hopper,
        "portable_varlen": portable,
        "fa2_varlen": fa2_varlen,
        "dhpfa_padded": lambda q, k, v, causal: dhpfa.flash_attn_func(q, k, v, causal=causal),
        "cudnn_padded": cudnn_padded,
    }
    if hopper_variant is None:
        kernels.pop("hopper_varlen")
    for block_m, block_n, stages in hopper_configs:  # other tiles of the Hopper varlen kernel (two consumers)
        cfg = variants.TileConfig(block_m, block_n, 4, stages, split=2, pingpong=True)
        var = variants.Variant(variants.VARLEN_SM90_KERNEL, cfg, torch.bfloat16, d, causal,
                               public_loads=("CU_Q", "CU_K"))

        def other(q, k, v, causal, var=var):
            out = api._varlen_out(q, var.config.block_m // 2)
            dispatch.launch_varlen(var, q, k, v, out, torch.empty(h, total, device="cuda"), cu, cu, mx, d ** -0.5)
            return out
        kernels["hopper_" + cfg.label()] = other
    sets = {name: padded if name.endswith("_padded") else packed for name in kernels}
    # correctness of the varlen call against FA2's varlen on the same inputs (both bf16; a sanity check, the float64
    # tests are tests/test_varlen.py)
    ours = kernels["dhpfa_varlen"](*packed[0], causal).float()
    api_kernels = sorted({p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)
                          and p.variant is not None})
    rel_portable = float((ours - portable(*packed[0], causal).float()).norm() / ours.norm())
    errors = {}
    try:
        theirs = fa2_varlen(*packed[0], causal).float()
        agree = float((ours - theirs).norm() / theirs.norm())
    except Exception as e:  # noqa: BLE001
        agree, errors["fa2_varlen"] = None, f"{type(e).__name__}: {str(e)[:160]}"
        kernels.pop("fa2_varlen")
    times = interleaved_ms(kernels, sets, causal, rounds=rounds, graph=True, errors=errors)
    flops = 4 * d * h * sum(visible(n, n, causal) for n in lens)
    row = {"kind": kind, "d": d, "causal": causal, "batch": len(lens), "total": total, "max": mx,
           "rel_diff_vs_fa2": agree, "rel_diff_vs_portable": rel_portable, "api_kernels": api_kernels,
           "errors": errors}
    for name, ts in times.items():
        ms = stats.median(ts)
        row[name] = {"ms": ms, "tflops": flops / ms / 1e9}
    # host time of an eager varlen call (Python, checks, JIT launch), the GPU kept busy by no other work
    row["eager_host_us_per_call"] = eager_host_us(kernels["dhpfa_varlen"], packed[0] + (causal,))
    return row


EQUAL_SHAPES = ((16, 1024, 1024, 16, 16, 128), (4, 4096, 4096, 16, 16, 128), (16, 1024, 1024, 32, 32, 64),
                (4, 4096, 4096, 32, 32, 64), (8, 2048, 2048, 8, 8, 256), (16, 1024, 1024, 16, 16, 96),
                (8, 128, 2048, 32, 8, 128), (16, 96, 96, 16, 16, 128), (8, 256, 256, 32, 8, 128),
                (32, 512, 512, 32, 32, 64), (4, 128, 1024, 32, 8, 64))


@contextlib.contextmanager
def dense_path_off():
    """Equal-length varlen calls on the varlen kernel (variants.VARLEN_DENSE_MIN_Q = None, plans made afresh)."""
    from dhpfa import api
    from dhpfa.kernels import variants
    old = variants.VARLEN_DENSE_MIN_Q
    variants.VARLEN_DENSE_MIN_Q = None
    api._PLANS.clear()
    try:
        yield
    finally:
        variants.VARLEN_DENSE_MIN_Q = old
        api._PLANS.clear()


def eager_host_us(fn, args, calls=50):
    """Host time of one eager call of fn(*args) (after 5 warm-up calls), in us."""
    for _ in range(5):
        fn(*args)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn(*args)
    host = (time.perf_counter() - t0) / calls * 1e6
    torch.cuda.synchronize()
    return host


def equal_case(batch, sq, sk, h, hk, d, causal, rounds, n_sets=3):
    """B sequences of equal lengths (what Hugging Face's unpadding gives for a batch without padding): the API (the
    dense path, variants.varlen_dense), the varlen kernel forced (the path off), dhpfa's dense call on the same rows
    as (B, S, H, D) (the API's path less the guard), FA2's varlen kernel."""
    cu_q = offsets([sq] * batch)
    cu_k = offsets([sk] * batch)
    g = torch.Generator(device="cuda").manual_seed(d + sq)
    sets = [(torch.randn(batch * sq, h, d, device="cuda", dtype=torch.bfloat16, generator=g),
             torch.randn(batch * sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g),
             torch.randn(batch * sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g)) for _ in range(n_sets)]

    def api_call(q, k, v, causal):
        return dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, sq, sk, causal=causal)

    def varlen_kernel(q, k, v, causal):
        with dense_path_off():
            return api_call(q, k, v, causal)

    def dense(q, k, v, causal):
        return dhpfa.flash_attn_func(q.unflatten(0, (batch, sq)), k.unflatten(0, (batch, sk)),
                                     v.unflatten(0, (batch, sk)), causal=causal)

    def fa2_varlen(q, k, v, causal):
        return torch.ops.aten._flash_attention_forward(q, k, v, cu_q, cu_k, sq, sk, 0.0, causal, False)[0]
    kernels = {"api": api_call, "varlen_kernel": varlen_kernel, "dense": dense, "fa2_varlen": fa2_varlen}
    a = api_call(*sets[0], causal).float()
    b = varlen_kernel(*sets[0], causal).float()
    errors = {}
    times = interleaved_ms(kernels, sets, causal, rounds=rounds, graph=True, errors=errors)
    flops = 4 * d * h * batch * visible(sq, sk, causal)
    row = {"batch": batch, "sq": sq, "sk": sk, "h": h, "hk": hk, "d": d, "causal": causal, "errors": errors,
           "rel_diff_api_vs_varlen_kernel": float((a - b).norm() / b.norm())}
    for name, ts in times.items():
        ms = stats.median(ts)
        row[name] = {"us": ms * 1e3, "tflops": flops / ms / 1e9}
    row["eager_host_us_per_call"] = eager_host_us(api_call, sets[0] + (causal,))
    with dense_path_off():  # the same for the varlen kernel (its plan kept across the calls)
        row["eager_host_us_per_call_varlen_kernel"] = eager_host_us(api_call, sets[0] + (causal,))
    return row


def visible_window(sq, sk, left, right):
    """Visible (query, key) pairs of one sequence under a window (bottom-right aligned; -1 unbounded)."""
    n = 0
    for i in range(sq):
        lo = 0 if left < 0 else max(0, i + sk - sq - left)
        hi = sk - 1 if right < 0 else min(sk - 1, i + sk - sq + right)
        n += max(0, hi - lo + 1)
    return n


def options_case(d, rounds, window=1024, softcap=30.0):
    """The mixed workload, causal, with a local window (window, 0) and with soft-capping, beside the plain causal call
    and FA2's varlen kernel (plain, and with the window where torch's entry point takes one)."""
    h = 2048 // d
    lens = workload("mixed")
    total, mx = sum(lens), max(lens)
    cu = offsets(lens)
    g = torch.Generator(device="cuda").manual_seed(d)
    packed = [tuple(torch.randn(total, h, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
              for _ in range(3)]
    V = dhpfa.flash_attn_varlen_func
    kernels = {
        "causal": lambda q, k, v, c: V(q, k, v, cu, cu, mx, mx, causal=True),
        "window": lambda q, k, v, c: V(q, k, v, cu, cu, mx, mx, causal=True, window_size=(window, 0)),
        "softcap": lambda q, k, v, c: V(q, k, v, cu, cu, mx, mx, causal=True, softcap=softcap),
        "window_softcap": lambda q, k, v, c: V(q, k, v, cu, cu, mx, mx, causal=True, window_size=(window, 0),
                                               softcap=softcap),
        "fa2_causal": lambda q, k, v, c: torch.ops.aten._flash_attention_forward(q, k, v, cu, cu, mx, mx, 0.0, True,
                                                                                 False)[0],
        "fa2_window": lambda q, k, v, c: torch.ops.aten._flash_attention_forward(
            q, k, v, cu, cu, mx, mx, 0.0, True, False, window_size_left=window, window_size_right=0)[0],
    }
    errors = {}
    times = interleaved_ms(kernels, packed, True, rounds=rounds, graph=True, errors=errors)
    full = 4 * d * h * sum(visible(n, n, True) for n in lens)
    local = 4 * d * h * sum(visible_window(n, n, window, 0) for n in lens)
    row = {"d": d, "window": window, "softcap": softcap, "errors": errors, "lens": lens}
    for name, ts in times.items():
        ms = stats.median(ts)
        row[name] = {"ms": ms, "tflops": (local if "window" in name else full) / ms / 1e9}
    return row


def decode_inputs(batch, h, hk, d, q_per_seq, seed):
    """A decode-like batch: key lengths 512-8192 at random, q_per_seq queries each; three input sets (q, k, v).
    Returns (lens_k, cu_q, cu_k, total_q, total_k, max_q, max_k, sets)."""
    rng = random.Random(seed)
    lens_k = [rng.randint(512, 8192) for _ in range(batch)]
    lens_q = [q_per_seq] * batch
    tq, tk = sum(lens_q), sum(lens_k)
    g = torch.Generator(device="cuda").manual_seed(seed)
    sets = [(torch.randn(tq, h, d, device="cuda", dtype=torch.bfloat16, generator=g),
             torch.randn(tk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g),
             torch.randn(tk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g)) for _ in range(3)]
    return lens_k, offsets(lens_q), offsets(lens_k), tq, tk, q_per_seq, max(lens_k), sets


def decode_case(batch, h, hk, d, q_per_seq, rounds, seed=3):
    """Decode-like varlen calls (q_per_seq queries per sequence, causal, key lengths 512-8192 at random, grouped
    heads): the API (grouped heads as rows of a tile where the queries are few, split across programs where the grid
    is small), the kernel with one program per tile and one head per tile (rows) or the group's heads (grouped), FA2's
    varlen kernel, and dhpfa's dense call on the keys padded to the longest (which attends to the padding: a time
    reference only). us per call (CUDA-graph replay) and K/V bytes read per us."""
    from dhpfa.kernels import dispatch, variants
    lens_k, cu_q, cu_k, tq, tk, mq, mk, sets = decode_inputs(batch, h, hk, d, q_per_seq, seed)
    padded = []
    for q, k, v in sets:
        pk, pv = (torch.zeros(batch, mk, hk, d, device="cuda", dtype=torch.bfloat16) for _ in range(2))
        c = cu_k.tolist()
        for b in range(batch):
            pk[b, :lens_k[b]], pv[b, :lens_k[b]] = k[c[b]:c[b + 1]], v[c[b]:c[b + 1]]
        padded.append((q.view(batch, q_per_seq, h, d), pk, pv))
    def forced(group):  # one program per tile (no split), `group` query heads per tile
        variant = variants.varlen_variant(torch.bfloat16, d, True, group=group > 1)

        def fn(q, k, v, c):
            out, lse = torch.empty_like(q), torch.empty(h, tq, device="cuda")
            dispatch.launch_varlen(variant, q, k, v, out, lse, cu_q, cu_k, mq, d ** -0.5, group=group)
            return out
        return fn
    kernels = {
        "api": lambda q, k, v, c: dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, mq, mk, causal=True),
        "rows": forced(1),
        "grouped": forced(h // hk),
        "fa2_varlen": lambda q, k, v, c: torch.ops.aten._flash_attention_forward(q, k, v, cu_q, cu_k, mq, mk, 0.0, True,
                                                                                 False)[0],
        "dense_padded": lambda q, k, v, c: dhpfa.flash_attn_func(q, k, v, causal=True),
    }
    ref = kernels["api"](*sets[0], True).float()
    diff = float((kernels["rows"](*sets[0], True).float() - ref).norm() / ref.norm())
    errors = {}
    times = interleaved_ms(kernels, {"api": sets, "rows": sets, "grouped": sets, "fa2_varlen": sets,
                                     "dense_padded": padded}, True,
                           rounds=rounds, graph=True, errors=errors)
    kv_bytes = 2 * tk * hk * d * 2
    row = {"batch": batch, "h": h, "hk": hk, "d": d, "q_per_seq": q_per_seq, "lens_k": lens_k, "errors": errors,
           "rel_diff_rows_vs_api": diff}
    for name, ts in times.items():
        ms = stats.median(ts)
        row[name] = {"us": ms * 1e3, "gb_per_s": kv_bytes / (ms * 1e-3) / 1e9}
    return row


def block_table(lens_k, page, seed):
    """A paged cache for sequences of lens_k keys: pages of `page` rows in a seeded random order, each sequence's pages
    in its row of the block table (zeros past them). (block table (B, most pages) int32 on the CPU, the page count,
    the cache row of each key of the packed rows, in order.)"""
    blocks = [-(-n // page) for n in lens_k]
    nb = sum(blocks)
    order = torch.randperm(nb, generator=torch.Generator().manual_seed(seed)).tolist()
    bt = torch.zeros(len(lens_k), max(blocks), dtype=torch.int32)
    rows = []
    for b, n in enumerate(lens_k):
        own = [order.pop() for _ in range(blocks[b])]
        bt[b, :len(own)] = torch.tensor(own, dtype=torch.int32)
        rows += [own[j // page] * page + j % page for j in range(n)]
    return bt, nb, rows


def paged_case(batch, h, hk, d, q_per_seq, page, rounds, seed=3, causal=True):
    """decode_case's inputs with the keys also in a paged cache (pages of `page` rows in a random order, a block table):
    the API on the contiguous rows against the API with block_table (the PAGED builds), us per call (graph replay).
    Where the page size takes the per-block page form (variants.varlen_page_blocks), also "paged_keys": the same call
    on the per-key form (its plan made with variants.VARLEN_PAGE_BLOCKS off, under a block table one column wider, so
    that it keeps its own plan)."""
    from dhpfa import api
    from dhpfa.kernels import variants
    lens_k, cu_q, cu_k, tq, tk, mq, mk, sets = decode_inputs(batch, h, hk, d, q_per_seq, seed)
    bt, nb, rows = block_table(lens_k, page, seed)
    bt = bt.cuda()
    idx = torch.tensor(rows, device="cuda")
    paged = []
    for q, k, v in sets:
        kc, vc = (torch.zeros(nb * page, hk, d, device="cuda", dtype=torch.bfloat16) for _ in range(2))
        kc[idx], vc[idx] = k, v
        paged.append((q, kc.view(nb, page, hk, d), vc.view(nb, page, hk, d)))
    kernels = {
        "contiguous": lambda q, k, v, c: dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, mq, mk, causal=causal),
        "paged": lambda q, k, v, c: dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, mq, mk, causal=causal,
                                                                 block_table=bt),
    }
    inputs = {"contiguous": sets, "paged": paged}
    if variants.varlen_page_blocks(d, page):
        bt_keys = torch.cat([bt, bt[:, :1]], 1)
        kernels["paged_keys"] = lambda q, k, v, c: dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, mq, mk,
                                                                                causal=causal, block_table=bt_keys)
        inputs["paged_keys"] = paged
        variants.VARLEN_PAGE_BLOCKS = False
        try:
            kernels["paged_keys"](*paged[0], True)  # its plan: the per-key form
        finally:
            variants.VARLEN_PAGE_BLOCKS = True
    a = kernels["contiguous"](*sets[0], True).float()
    diff = float((kernels["paged"](*paged[0], True).float() - a).norm() / a.norm())
    forms = sorted({p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)
                    and p.variant is not None and "_paged" in p.variant.kernel})  # the paged builds the plans run
    same = {n: bool(torch.equal(kernels[n](*paged[0], True), kernels["paged"](*paged[0], True))) for n in kernels
            if n != "contiguous"}
    errors = {}
    times = interleaved_ms(kernels, inputs, True, rounds=rounds, graph=True, errors=errors)
    row = {"batch": batch, "h": h, "hk": hk, "d": d, "q_per_seq": q_per_seq, "page": page, "causal": causal,
           "errors": errors,
           "rel_diff_paged_vs_contiguous": diff, "kernels": forms, "bitwise_equal_to_paged": same}
    for name, ts in times.items():
        row[name] = {"us": stats.median(ts) * 1e3}
    return row


def split_sweep(batch, h, hk, d, q_per_seq, rounds, seed=3, parts=(1, 2, 4, 8, 16, 32)):
    """A decode-like call (as decode_case) with its tiles split in each number of `parts` (grouped heads where the API
    groups them): us per call, to set variants.varlen_splits' rule."""
    from dhpfa.kernels import dispatch, triton_fwd, variants
    lens_k, cu_q, cu_k, tq, tk, mq, mk, sets = decode_inputs(batch, h, hk, d, q_per_seq, seed)
    group = h // hk if h != hk and mq <= variants.VARLEN_GROUP_MAX_Q and d in variants.VARLEN_GROUP_HEAD_DIMS else 1

    def forced(n):
        variant = variants.varlen_variant(torch.bfloat16, d, True, split=n > 1, group=group > 1)
        combine = variants.varlen_combine_variant(torch.bfloat16, d, group=group > 1, splits=n)

        def fn(q, k, v, c):
            out, lse = torch.empty_like(q), torch.empty(h, tq, device="cuda")
            ws = triton_fwd.varlen_workspace(q, n) if n > 1 else (None, None)
            dispatch.launch_varlen(variant, q, k, v, out, lse, cu_q, cu_k, mq, d ** -0.5, group=group, splits=n, ws=ws,
                                   combine=combine)
            return out
        return fn
    kernels = {"api": lambda q, k, v, c: dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, mq, mk, causal=True)}
    kernels.update({f"parts{n}": forced(n) for n in parts})
    times = interleaved_ms(kernels, sets, True, rounds=rounds, graph=True, errors={})
    programs = -(-mq * group // 64) * batch * (h // group)
    row = {"batch": batch, "h": h, "hk": hk, "d": d, "q_per_seq": q_per_seq, "programs": programs,
           "rule": variants.varlen_splits(programs, mk, dispatch.sm_count(torch.device("cuda")), mq, d)}
    row.update({n: stats.median(ts) * 1e3 for n, ts in times.items()})
    return row


def leak_test(samples, decode=False, page=0):
    """dudect classes on one packed batch of mixed lengths, D=128 (the offsets fixed: they are public). decode: one
    query per sequence over 8 key lengths, 32 query heads over 8 (grouped heads, split across programs). page > 0
    (with decode): the keys in a paged cache of pages of `page` rows, in a fixed random order (the block table is
    public, as the offsets), so the paged builds are timed."""
    if decode:
        lens_k = [3000, 17, 700, 4096, 1, 250, 1500, 64]
        lens_q, h, hk = [1] * len(lens_k), 32, 8
    else:
        lens_q = lens_k = workload("mixed", seed=1)[:6]
        h = hk = 16
    d = 128
    cu_q, cu_k = offsets(lens_q), offsets(lens_k)
    total_k = sum(lens_k)
    if page:
        bt, nb, _ = block_table(lens_k, page, 5)
        bt, total_k = bt.cuda(), nb * page

    def fn(q, k, v):  # (1, H, total, D) buffers, viewed as (total, H, D)
        k, v = k.transpose(1, 2)[0], v.transpose(1, 2)[0]
        if page:  # the rows as pages (num_blocks, page, H_kv, D)
            return dhpfa.flash_attn_varlen_func(q.transpose(1, 2)[0], k.unflatten(0, (-1, page)),
                                                v.unflatten(0, (-1, page)), cu_q, cu_k, max(lens_q), max(lens_k),
                                                causal=True, block_table=bt)
        return dhpfa.flash_attn_varlen_func(q.transpose(1, 2)[0], k, v, cu_q, cu_k, max(lens_q), max(lens_k),
                                            causal=True)
    res = leak.run_leak(fn, (1, h, sum(lens_q), d, total_k, hk), samples=samples)
    res["lens_q"], res["lens_k"], res["page"] = lens_q, lens_k, page
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out/varlen")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--leak-samples", type=int, default=1000)
    ap.add_argument("--parts", default="grid,options,decode", help="comma list of grid, options, decode, splits, equal, paged")
    ap.add_argument("--decode-shapes", default="", help='"B,H,H_kv,D,queries;..." for the decode part')
    ap.add_argument("--equal-shapes", default="", help='"B,Sq,Sk,H,H_kv,D;..." for the equal part')
    ap.add_argument("--leaks", default="mixed,decode", help="comma list of the dudect tests (with --leak-samples): "
                    "mixed, decode (with the decode part), paged16, paged256 (decode steps on paged caches)")
    ap.add_argument("--dims", default="64,128", help="head dims of the grid part")
    ap.add_argument("--hopper-configs", default="", help='"block_m,block_n,stages;..." other tiles of the Hopper '
                    'varlen kernel, each a column of the grid part')
    ap.add_argument("--kinds", default="mixed,short,uniform1k", help="workloads of the grid part (also uptoN: lengths "
                    "16 .. N)")
    ap.add_argument("--paged-shapes", default="", help='"B,H,H_kv,D,queries,page[,causal 0/1];..." for the paged part')
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    options = []
    if "options" in a.parts:
        for d in (64, 128):
            options.append(options_case(d, a.rounds))
            r = options[-1]
            print(f"options D={d:3d} window ({r['window']}, 0) softcap {r['softcap']}: " + "  ".join(
                f"{n} {r[n]['ms']:.3f} ms {r[n]['tflops']:.0f}" for n in r if isinstance(r[n], dict) and "ms" in r[n])
                + f"  {r['errors']}", flush=True)
    decode = []
    if "decode" in a.parts:
        shapes = [tuple(int(x) for x in sh.split(",")) for sh in a.decode_shapes.split(";")] if a.decode_shapes else \
            ((8, 32, 8, 128, 1), (32, 32, 8, 128, 1), (8, 32, 8, 128, 4), (16, 16, 2, 64, 1), (4, 64, 8, 128, 1),
             (8, 32, 8, 128, 64), (4, 32, 8, 128, 512))
        for batch, h, hk, d, qs in shapes:
            decode.append(decode_case(batch, h, hk, d, qs, a.rounds))
            r = decode[-1]
            print(f"decode B={batch:2d} H={h} H_kv={hk} D={d} q/seq={qs}: " + "  ".join(
                f"{n} {r[n]['us']:.1f} us {r[n]['gb_per_s']:.0f} GB/s" for n in ("api", "rows", "grouped", "fa2_varlen",
                                                                                   "dense_padded") if n in r)
                + f"  diff {r['rel_diff_rows_vs_api']:.1e} {r['errors']}", flush=True)
    paged = []
    shapes = [tuple(int(x) for x in sh.split(",")) for sh in a.paged_shapes.split(";")] if a.paged_shapes else \
        ((8, 32, 8, 128, 1, 16), (8, 32, 8, 128, 1, 256), (32, 32, 8, 128, 1, 16), (16, 16, 2, 64, 1, 64),
         (4, 32, 8, 128, 64, 16))
    for batch, h, hk, d, qs, page, *causal in (shapes if "paged" in a.parts else ()):
        paged.append(paged_case(batch, h, hk, d, qs, page, a.rounds, causal=bool(causal[0]) if causal else True))
        r = paged[-1]
        print(f"paged B={batch:2d} H={h} H_kv={hk} D={d} q/seq={qs} page={page}"
              f"{'' if r['causal'] else ' non-causal'}: " + "  ".join(
            f"{n} {r[n]['us']:.1f} us" for n in ("contiguous", "paged", "paged_keys") if n in r)
            + f"  x{r['paged']['us'] / r['contiguous']['us']:.2f}"
            + (f" (per key x{r['paged_keys']['us'] / r['contiguous']['us']:.2f})" if "paged_keys" in r else "")
            + f"  diff {r['rel_diff_paged_vs_contiguous']:.1e} {r['kernels']} equal {r['bitwise_equal_to_paged']} "
            f"{r['errors']}", flush=True)
    sweep = []
    if "splits" in a.parts:
        for batch, h, hk, d, qs in ((16, 16, 2, 64, 1), (8, 32, 8, 128, 1), (4, 32, 8, 128, 1), (2, 32, 8, 128, 1),
                                    (8, 32, 32, 128, 1), (16, 32, 8, 128, 1), (4, 16, 2, 64, 4)):
            sweep.append(split_sweep(batch, h, hk, d, qs, a.rounds))
            r = sweep[-1]
            print(f"splits B={batch:2d} H={h} H_kv={hk} D={d} q/seq={qs} programs={r['programs']} rule={r['rule']}: "
                  + "  ".join(f"{n} {r[n]:.1f}" for n in r if n == "api" or n.startswith("parts")), flush=True)
    equal = []
    eq_shapes = [tuple(int(x) for x in sh.split(",")) for sh in a.equal_shapes.split(";")] if a.equal_shapes else \
        EQUAL_SHAPES
    for batch, sq, sk, h, hk, d in (eq_shapes if "equal" in a.parts else ()):
        for causal in (False, True):
            equal.append(equal_case(batch, sq, sk, h, hk, d, causal, a.rounds))
            r = equal[-1]
            print(f"equal B={batch:2d} {sq}x{sk} H={h}/{hk} D={d} causal={causal!s:5s}: " + "  ".join(
                f"{n} {r[n]['us']:.1f} us {r[n]['tflops']:.0f}" for n in ("api", "varlen_kernel", "dense", "fa2_varlen")
                if n in r) + f"  diff {r['rel_diff_api_vs_varlen_kernel']:.1e}  host "
                f"{r['eager_host_us_per_call']:.1f} us (varlen kernel {r['eager_host_us_per_call_varlen_kernel']:.1f}) "
                f"{r['errors']}", flush=True)
    for kind in (a.kinds.split(",") if "grid" in a.parts else ()):
        for d in (int(x) for x in a.dims.split(",")):
            for causal in (False, True):
                rows.append(case(kind, d, causal, a.rounds, hopper_configs=[
                    tuple(int(x) for x in c.split(",")) for c in a.hopper_configs.split(";") if c]))
                r = rows[-1]
                cells = "  ".join(f"{n} {r[n]['tflops']:.0f}" for n in r if isinstance(r[n], dict) and "tflops" in r[n])
                print(f"{kind:9s} D={d:3d} causal={causal!s:5s} B={r['batch']:2d} max={r['max']:4d}  {cells}  "
                      f"diff-vs-fa2 {r['rel_diff_vs_fa2']} vs-portable {r['rel_diff_vs_portable']:.1e} "
                      f"{r['api_kernels']}  host {r['eager_host_us_per_call']:.1f} us  {r['errors']}",
                      flush=True)
    res = {"device": torch.cuda.get_device_name(), "rows": rows, "options": options, "decode": decode,
           "split_sweep": sweep, "equal": equal, "paged": paged}
    if a.leak_samples:
        for key, name, decode, page in (("leak", "mixed", False, 0), ("leak_decode", "decode", True, 0),
                                        ("leak_paged16", "paged16", True, 16), ("leak_paged256", "paged256", True, 256)):
            if name not in a.leaks.split(",") or (name == "decode" and "decode" not in a.parts):
                continue
            res[key] = leak_test(a.leak_samples, decode, page)
            print(key + ":", json.dumps({c: (round(v["t"], 2), round(v["median_us"], 1))
                                         if isinstance(v, dict) and "t" in v else v
                                         for c, v in res[key].items() if not c.startswith("lens")}))
    with open(os.path.join(a.out, "varlen_bench.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)


if __name__ == "__main__":
    main()
