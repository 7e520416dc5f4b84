"""On the GPU: every shipped variant against a float64 reference on the protocol grid, determinism, and
that the binary the JIT launches is byte-identical to the one the auditor compiled offline."""
import dataclasses
import hashlib
import math

import pytest
import torch

import dhpfa
from dhpfa.kernels import dispatch, variants
from dhpfa.measure import bench
from dhpfa.reference import attention_ref_rows
from .reference import check_variant_on_grid, poison_api_outputs

pytestmark = pytest.mark.gpu

TOL = {torch.bfloat16: 1e-2, torch.float16: 2e-3}


def _check(b, sq, sk, h, hk, d, causal, dtype, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=dtype, generator=g)
    k = torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g)
    v = torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g)
    out, lse = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
    torch.cuda.synchronize()
    assert not out.isnan().any() and not lse.isnan().any()
    rows = torch.unique(torch.linspace(0, sq - 1, min(sq, 512), device="cuda").long())
    for bb, hh in {(0, 0), (b - 1, h - 1)}:
        ro, rl = attention_ref_rows(q, k, v, 1 / math.sqrt(d), sk - sq if causal else None, bb, hh, rows)
        o = out[bb, rows, hh].double()
        err = float((o - ro).norm() / ro.norm())
        assert err < TOL[dtype], f"rel err {err:.2e} at b={bb} h={hh}"
        fin = torch.isfinite(rl)
        assert torch.equal(torch.isfinite(lse[bb, hh, rows]), fin)
        assert torch.allclose(lse[bb, hh, rows][fin].double(), rl[fin], rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("case", bench.grid_cases(), ids=lambda c: c.label().replace(" ", "-"))
def test_protocol_grid(case, dtype):
    _check(case.batch, case.seq, case.seq, case.heads, case.heads, case.head_dim, case.causal, dtype, case.seq)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", variants.HEAD_DIMS)
@pytest.mark.parametrize("sq,sk,h,hk,causal", [(1, 1, 2, 1, False), (333, 1000, 8, 2, True),
                                               (1000, 333, 4, 4, True), (777, 777, 6, 3, False),
                                               # past the short-tile lengths (D=64: three consumers)
                                               (5001, 5001, 4, 2, False), (4099, 9001, 4, 1, True)])
def test_head_dims_odd_shapes_gqa(d, sq, sk, h, hk, causal, dtype):
    _check(2, sq, sk, h, hk, d, causal, dtype, d + sq)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("sq,sk,h,hk,causal,block_n", [(512, 512, 12, 12, False, 128), (512, 512, 12, 12, True, 64),
                                                       (300, 1000, 24, 2, False, 128), (700, 301, 4, 2, False, 64)])
def test_few_program_grids_at_d64_d128(d, sq, sk, h, hk, causal, block_n, dtype):
    """Grids of at most one 64-row program per SM through the API, but more than half (twice the grid would not fit:
    the cluster builds do not run, except below their keys): non-causal from variants.FEW_PROGRAMS_MID_SEQ keys the
    Gluon one-consumer 64x128 tiles (SM90_FEW_PROGRAMS_MID), below it and causal the 64x64 tiles of SM90_FEW_PROGRAMS
    (pointer loads at D=64); float64 reference. The variant checked is the one the call's plan holds (api._PLANS), so
    the API's own count of programs decides it."""
    from dhpfa import api
    api._PLANS.clear()
    _check(1, sq, sk, h, hk, d, causal, dtype, sq + sk + d)
    (plan,) = api._PLANS.values()
    chosen = plan.variant
    assert chosen.config.block_m == 64 and chosen.config.block_n == block_n and chosen in variants.shipped_variants()


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", variants.HEAD_DIMS)
@pytest.mark.parametrize("sq,sk,h,hk,causal,parts", [(512, 1024, 8, 8, False, 2), (100, 3001, 3, 1, True, 4),
                                                     (64, 4096, 8, 2, False, 8),
                                                     (1, 1500, 2, 2, False, {64: 8, 96: 8, 128: 8, None: 2}),
                                                     (4, 3100, 8, 8, False, {64: 8, 96: 8, 128: 8, None: 4}),
                                                     (32, 1100, 1, 1, True, {64: 8, 96: 8, 128: 8, None: 2}),
                                                     (700, 2500, 4, 2, True, 2), (512, 2048, 6, 6, False, 2),
                                                     (300, 9000, 4, 1, True, 4), (100, 8192, 2, 1, False, 16),
                                                     (1, 20000, 3, 3, True, {32: 32, 64: 32, 128: 32, None: 16}),
                                                     (65, 5000, 4, 4, True, 8),
                                                     (1, 20000, 1, 1, False, {64: 64, 128: 64, None: 32}),
                                                     (30, 40000, 1, 1, True, 64),
                                                     (2, 5000, 2, 2, False, {64: 32, 96: 16, 128: 32, None: 8}),
                                                     (1, 9000, 1, 1, True, {64: 64, 128: 64, None: 16}),
                                                     (32, 2048, 1, 1, False, {64: 16, 96: 16, 128: 16, None: 4}),
                                                     (5, 9000, 7, 7, False, {32: 16, 64: 16, 96: 16, 128: 16,
                                                                             None: 8}),
                                                     (1, 20000, 4, 4, False, {32: 32, None: 16}),
                                                     (1, 33000, 4, 4, False, {32: 32, 64: 32, None: 16})])
def test_few_program_grids_split_the_keys_across_programs(d, sq, sk, h, hk, causal, parts, dtype, monkeypatch):
    """Grids where twice the 64-row programs fit the SMs, with at least FEW_PROGRAMS_SPLIT_KV_SEQ keys: two programs
    per tile (SM90_FEW_PROGRAMS_SPLIT_KV), the second to arrive combining both halves; four (SPLIT_KV4) where four
    times the grid fits, from FEW_PROGRAMS_SPLIT_KV4_SEQ keys; 8, 16, 32 and 64 (a tree of meetings three to six
    levels deep) where that many times the grid fits half of the SMs (all of them at D <= SPLIT_KV_ALL_SMS_MAX_D; session
    46), from FEW_PROGRAMS_SPLIT_KV8_SEQ .. FEW_PROGRAMS_SPLIT_KV64_SEQ keys (on a GPU of 132 SMs; `parts`, or (at D > 64,
    at D <= 64) where the two differ); D=256 with its 64x64 builds, whose meetings
    merge from the workspace, D=32, and D=96 / 192 run as 128 / 256 with zero-filled columns (session 15); float64
    reference;
    then bitwise the same output and LSE over repeated calls and CUDA-graph replays (the flags the kernel leaves
    must be reset for the next call on the same workspace). Two parts at D <= 128: one cluster of two CTAs a tile,
    meeting in shared memory (session 43; the next test); 4, 8 or 16 at the head dims of variants.SPLIT_KV_CLUSTER_DIMS:
    each pair of parts one cluster, the levels above in global memory (session 47). Calls of at most 32 queries
    (variants.FEW_ROWS_SPLIT_KV, sessions 48-50; `parts` a dict by head dim, None the rest): 16 parts from 2,048 keys at
    D = 64 / 96 / 128 where sixteen times the grid fits half the SMs, 8 from 1,024 where eight times it fits the SMs
    (else 4 where four times it fits half), each sixteen parts one cluster of sixteen CTAs where those fit (then
    wherever they fit from 8,192 keys, and at D = 64 in place of twice the parts whose clusters would not fit, where
    those take at most FEW_ROWS_HALF_KEYS keys each: session 50), else each eight one of eight (each four one of four)
    where they fit, their meetings copying only the rows below S_q. At D = 64 / 128 (session 53, FEW_ROWS_PULL_SPLIT)
    64 parts from 8,192 keys where they fit 112 CTAs (one tile), 32 from 4,096 (up to three tiles), two or four
    clusters of sixteen a tile exchanging, their column slices meeting in the workspace. (One-query calls with H = H_KV
    run here as the forward kernels' calls: variants.SWAP_DECODE_MIN_GROUP = 2, the rule before session 66, which
    sends such calls to the swap decode kernels as groups of one.)"""
    from dhpfa import api
    monkeypatch.setattr(variants, "SWAP_DECODE_MIN_GROUP", 2)
    monkeypatch.setattr(api, "_PLANS", {})  # (the plans made under the patch stay out of the other tests)
    _check(1, sq, sk, h, hk, d, causal, dtype, sq + sk + d)
    (plan,) = api._PLANS.values()
    if isinstance(parts, tuple):
        parts = parts[d <= variants.SPLIT_KV_ALL_SMS_MAX_D]
    parts = _per_dim(parts, d)
    if dispatch.sm_count(torch.device("cuda")) == 132:
        assert plan.variant.config.split_kv == parts
        # two parts at D <= 128, and 4 / 8 / 16 at the head dims variants.SPLIT_KV_CLUSTER_DIMS lists (CL_TREE, session
        # 47): pairs of parts as clusters of two CTAs
        cl_tree = d in variants.SPLIT_KV_CLUSTER_DIMS.get(parts, ())
        # calls of at most 32 queries: each sixteen, eight or four parts one cluster of sixteen / eight / four where
        # the clusters fit (sessions 48-50)
        fits = sq <= variants.FEW_ROWS_SPLIT_KV_MAX_Q and parts * h * -(-sq // 64) <= variants.FEW_ROWS_QUAD_CTAS
        fits16 = fits and parts * h * -(-sq // 64) <= variants.FEW_ROWS_X16_CTAS
        cluster = 16 if fits16 and (d, causal) in variants.SM90_FEW_PROGRAMS_CL16_TREE.get(parts, {}) else \
            8 if fits and (d, causal) in variants.SM90_FEW_PROGRAMS_CL8_TREE.get(parts, {}) else \
            4 if fits and (d, causal) in variants.SM90_FEW_PROGRAMS_CL4_TREE.get(parts, {}) else \
            (parts == 2 and d <= 128) or cl_tree
        assert plan.variant.config.cluster == cluster, plan.variant.name
    assert plan.variant.config.split_kv and plan.variant in variants.shipped_variants()
    g = torch.Generator(device="cuda").manual_seed(d)
    q = torch.randn(1, sq, h, d, device="cuda", dtype=dtype, generator=g)
    k, v = (torch.randn(1, sk, hk, d, device="cuda", dtype=dtype, generator=g) for _ in range(2))
    out, lse = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
    _assert_repeats_and_replays_equal(q, k, v, causal, out, lse, 10)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", [d for d in variants.HEAD_DIMS if d <= 128])
@pytest.mark.parametrize("sq,sk,h,hk,causal,block_n", [(512, 512, 8, 8, False, 64), (512, 512, 8, 8, True, 64),
                                                       (300, 800, 4, 2, False, 128), (1024, 1024, 4, 4, True, 64),
                                                       (700, 2500, 4, 2, True, 128), (1, 600, 2, 2, False, 64)])
def test_few_program_grids_run_clusters_of_two(d, sq, sk, h, hk, causal, block_n, dtype):
    """Grids where twice the 64-row programs fit the SMs, from FEW_PROGRAMS_CLUSTER_SEQ keys, D <= 128: each tile's two
    programs as one cluster of two CTAs (variants.cluster_variant; session 43), part 1 handing its state to part 0 in
    shared memory; 64-key blocks below FEW_PROGRAMS_CLUSTER_N128_SEQ keys (on a GPU of 132 SMs: block_n); float64
    reference on poisoned outputs, then bitwise the same output and LSE over repeated calls and CUDA-graph replays (the
    ready word part 1 clears, the mbarriers each part initialises: nothing a call leaves changes the next)."""
    plan = _cluster_call_checked(d, sq, sk, h, hk, causal, dtype)
    if dispatch.sm_count(torch.device("cuda")) == 132:
        assert plan.variant.config.block_n == block_n and not plan.variant.config.maxnreg


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", [32, 64])
@pytest.mark.parametrize("b,sq,sk,h,hk,causal", [(1, 512, 1024, 16, 16, False), (1, 1024, 1024, 8, 8, True),
                                                 (1, 300, 3001, 24, 2, False), (1, 700, 2500, 8, 2, True),
                                                 (1, 64, 4096, 100, 100, False), (2, 512, 8192, 8, 4, False)])
def test_grids_of_up_to_the_sm_count_run_clusters_two_an_sm(b, d, sq, sk, h, hk, causal, dtype):
    """Grids of more than half the SM count and at most the SM count (67-132 tiles of 64 rows), from
    FEW_PROGRAMS_CLUSTER_2X_SEQ keys, D <= 64: the two-CTA cluster build at 128 registers a thread at launch (two CTAs
    an SM: variants.SM90_FEW_PROGRAMS_CLUSTER_2X; session 45); float64 reference on poisoned outputs, bitwise repeats
    and CUDA-graph replays, as the two-CTA builds above."""
    plan = _cluster_call_checked(d, sq, sk, h, hk, causal, dtype, b)
    if dispatch.sm_count(torch.device("cuda")) == 132:
        assert plan.variant.config.maxnreg == 128 and plan.variant.config.block_n == 128, plan.variant.name


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", [96, 128])
@pytest.mark.parametrize("b,sq,sk,h,hk", [(1, 512, 400, 8, 8), (2, 300, 450, 4, 2), (1, 64, 384, 3, 1)])
def test_d128_few_program_grids_run_clusters_from_384_keys(b, sq, sk, h, hk, d, dtype):
    """D=128 (and D=96, which runs its binary) without causal masking: the two-CTA cluster build (64-key blocks) from
    variants.cluster_seq = 384 keys (session 45), as the test above."""
    plan = _cluster_call_checked(d, sq, sk, h, hk, False, dtype, b)
    assert plan.variant.config.block_n == 64 and not plan.variant.config.maxnreg


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("b,sq,sk,h,hk,causal", [(1, 512, 512, 16, 16, False), (1, 512, 700, 16, 8, True),
                                                 (2, 333, 600, 10, 5, False)])
def test_d32_grids_of_up_to_the_sm_count_run_clusters_from_512_keys(b, sq, sk, h, hk, causal, dtype):
    """D=32: the two-CTA clusters two an SM from 512 keys (FEW_PROGRAMS_CLUSTER_2X_EARLY; session 45), as above."""
    plan = _cluster_call_checked(32, sq, sk, h, hk, causal, dtype, b)
    if dispatch.sm_count(torch.device("cuda")) == 132:
        assert plan.variant.config.maxnreg == 128, plan.variant.name


def _cluster_call_checked(d, sq, sk, h, hk, causal, dtype, b=1):
    """The plan of a call the API runs on a two-CTA cluster build (asserted), after the float64 check of its output,
    the poisoned-output call and the bitwise repeats and replays."""
    from dhpfa import api
    api._PLANS.clear()
    _check(b, sq, sk, h, hk, d, causal, dtype, sq + sk + d)
    (plan,) = api._PLANS.values()
    assert plan.variant.config.cluster and plan.variant.config.split_kv == 2 and plan.variant in \
        variants.shipped_variants(), plan.variant.name
    g = torch.Generator(device="cuda").manual_seed(d)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=dtype, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g) for _ in range(2))
    out, lse = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
    out_p, lse_p, _ = _poisoned_call(q, k, v, causal)  # outputs NaN before the call: every element written
    assert torch.equal(out_p, out) and torch.equal(lse_p, lse)
    _assert_repeats_and_replays_equal(q, k, v, causal, out, lse, 10)
    return plan


def _poisoned_call(q, k, v, causal):
    """(out, lse, plan) of one flash_attn_func call whose output buffers start as NaN (api._empty poisoned), with the
    plans cleared first so that the call's own plan is the only one."""
    from dhpfa import api
    api._PLANS.clear()
    orig_empty = api._empty
    try:
        api._empty = lambda shape, dt, dev: torch.full(shape, float("nan"), dtype=dt, device=dev)
        out, lse = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
    finally:
        api._empty = orig_empty
    (plan,) = api._PLANS.values()
    return out, lse, plan


def _assert_repeats_and_replays_equal(q, k, v, causal, out, lse, n):
    """flash_attn_func(q, k, v) gives bitwise `out` and `lse` over n repeated calls and n replays of a CUDA graph of it
    (into outputs poisoned before each replay): nothing a call leaves behind (split flags, workspaces) changes the
    next."""
    for _ in range(n):
        o2, l2 = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
        assert torch.equal(o2, out) and torch.equal(l2, lse)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dhpfa.flash_attn_func(q, k, v, causal=causal)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        o3, l3 = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
    for _ in range(n):
        o3.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        assert torch.equal(o3, out) and torch.equal(l3, lse)


# (b, sq, sk, h, hk, causal, parts): groups of 2-8 heads (7: 7 heads a tile and a spare slot; 6 with 12 queries: two
# slots a head, 3 heads a tile; 24 and 32 queries: 2 heads a tile; 7 with 9 queries: tiles of 4 and 3 heads, 5 with 12:
# of 3 and 2); 1: packed, one program per tile; 0: not packed (65 queries; 33-64 on grids small enough to split);
# "pp": 128-row tiles of two consumers (session 18; past 32 queries at D >= 96 only, else not packed); (a, b): a parts
# at D <= 64, b above (8-64 parts on half of the SMs at D > 64: variants.PACKED_SPLIT_KV_SHARE, session 47)
_PACKED_QUERIES = [(1, 4, 8192, 32, 8, True, (16, 8)), (2, 16, 4096, 32, 8, False, (8, 4)),
                   (1, 7, 20000, 64, 8, True, (16, 8)), (4, 3, 1500, 16, 4, False, 2), (1, 2, 40000, 8, 1, True, 64),
                   (1, 5, 8192, 16, 8, True, (16, 8)),
                   (16, 4, 2048, 32, 8, True, 1), (2, 9, 700, 16, 4, False, 1), (1, 8, 5000, 28, 4, True, 8),
                   (2, 12, 3000, 12, 2, False, 4), (8, 3, 1000, 40, 8, True, 1), (1, 9, 2000, 14, 2, True, 2), (1, 12, 3000, 10, 2, True, 4),
                   (2, 24, 3000, 16, 4, True, 4), (1, 32, 9000, 8, 2, False, 16), (1, 33, 2000, 8, 2, True, 0),
                   (2, 48, 3000, 16, 4, False, 0), (24, 40, 1000, 16, 4, True, "pp"), (16, 64, 700, 14, 2, False, "pp"),
                   (24, 24, 1000, 16, 4, True, "pp"), (1, 65, 2000, 8, 2, True, 0)]


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", variants.HEAD_DIMS)
@pytest.mark.parametrize("b,sq,sk,h,hk,causal,parts", _PACKED_QUERIES)
def test_queries_of_grouped_heads_run_packed(b, sq, sk, h, hk, causal, parts, d, dtype):
    """2-64 queries per sequence with grouped heads (speculative decoding's drafts): variants.pack_heads heads of a group
    run as the rows of one tile (sm90_fwd PACK), split across `parts` programs per tile (on 132 SMs; 1: one program per
    packed tile, where the packed grid is too big to split or the keys too few; 0: not packed); bottom-right causal
    masks each query position on its own. Every head of every sequence against float64 on poisoned outputs, out and lse; then
    bitwise the same over repeated calls and CUDA-graph replays."""
    g = torch.Generator(device="cuda").manual_seed(b * sk + d + sq)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=dtype, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g) for _ in range(2))
    out, lse, plan = _poisoned_call(q, k, v, causal)
    assert plan.variant in variants.shipped_variants()
    if isinstance(parts, tuple):
        parts = parts[d > variants.SPLIT_KV_ALL_SMS_MAX_D]
    if parts == "pp" and d < 96 and sq > 32:  # past 32 queries the two-consumer build is D >= 96's
        parts = 0
    assert bool(plan.variant.config.pack) == bool(parts)
    if parts == "pp":
        assert plan.variant == variants.Variant(*variants.SM90_PACKED_PP[(d, causal)], dtype, d, causal)
    elif parts and dispatch.sm_count(torch.device("cuda")) == 132:
        assert plan.variant.config.split_kv == parts
    _assert_heads_match(q, k, v, out, lse, sk - sq if causal else None,
                        [(bb, hh) for bb in range(b) for hh in range(h)], TOL[dtype], f" ({plan.variant.name})")
    _assert_repeats_and_replays_equal(q, k, v, causal, out, lse, 5)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("sq,sk,h,hk,causal", [(512, 9000, 16, 16, True), (512, 5000, 16, 4, False),
                                               (130, 2500, 40, 40, True), (2100, 2048, 4, 2, True)])
def test_few_program_grids_split_keys_inside_a_program_at_every_length(d, sq, sk, h, hk, causal, dtype):
    """Grids of 67-132 64-row programs (too many for a split across programs) with at least FEW_PROGRAMS_LONG_SEQ
    keys, past the short-tile lengths too: at D=128 the split-key build, causal with one tile per program (unpaired;
    the last case has rows that see no key); at D=64 since session 45 the two-CTA clusters two an SM
    (variants.SM90_FEW_PROGRAMS_CLUSTER_2X); float64 reference; the variant is the one the call's plan holds."""
    from dhpfa import api
    api._PLANS.clear()
    _check(1, sq, sk, h, hk, d, causal, dtype, sq + sk + d)
    (plan,) = api._PLANS.values()
    assert 66 < h * ((sq + 63) // 64) <= dispatch.sm_count(torch.device("cuda"))
    if d <= 64:
        assert plan.variant.config.cluster and plan.variant.config.maxnreg == 128, plan.variant.name
    else:
        assert plan.variant.config.split_k and plan.variant.config.unpaired == causal
    assert plan.variant in variants.shipped_variants()


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("b,h,s,causal,want", [(1, 8, 4096, False, "short"), (2, 8, 2048, False, "short"),
                                               (1, 12, 2048, False, "x3"), (1, 6, 3000, False, "x3"),
                                               (1, 8, 2048, False, "x2"), (1, 12, 3072, False, "short"),
                                               (1, 4, 8192, False, "x2"), (1, 8, 4096, True, "x3"),
                                               (2, 5, 3100, True, "x3"), (1, 16, 4096, True, "short")])
def test_few_heads_past_the_short_tile_lengths_fill_the_last_wave(b, h, s, causal, want, dtype):
    """D=64 where select's 192-row persistent build, the 128-row build and the short tiles may run (variants.
    long_tiles_fill; sessions 45-46): non-causal, the 128-row build or the short tiles where the 192-row build's last
    wave would be nearly empty; causal from LONG_TILES_CAUSAL_SEQ keys, that build where its paired units fill one wave
    well (on a GPU of 132 SMs); float64 reference (causal: the last rows see every key), the variant the call's plan
    holds."""
    from dhpfa import api
    api._PLANS.clear()
    _check(b, s, s, h, h, 64, causal, dtype, s + h)
    (plan,) = api._PLANS.values()
    if dispatch.sm_count(torch.device("cuda")) == 132:
        tiles = {"short": variants.SM90_SHORT, "x3": variants.SM90_GLUON_LONG, "x2": variants.SM90_LONG_FILL_X2}[want]
        assert plan.variant == variants.Variant(*tiles[64], dtype, 64, causal), plan.variant.name


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("b,h,hk,sq,sk,want", [(1, 32, 32, 512, 4096, "x2"), (8, 8, 2, 256, 3000, "x2"),
                                               (1, 64, 64, 512, 2048, "short"), (2, 16, 16, 1000, 1500, "short"),
                                               (4, 8, 8, 500, 2000, "x2")])
def test_few_query_calls_in_the_short_tiles_band_fill_their_wave(b, h, hk, sq, sk, want, dtype):
    """D=64 non-causal calls of at most GLUON_LONG_MIN_SEQ_Q queries whose keys are in the short tiles' band: the
    128-row two-consumer build where the wave model prefers it (variants.FEW_ROWS_FILL; session 46), else the short
    tiles (on a GPU of 132 SMs); float64 reference, the variant the call's plan holds."""
    from dhpfa import api
    api._PLANS.clear()
    _check(b, sq, sk, h, hk, 64, False, dtype, sq + sk + h)
    (plan,) = api._PLANS.values()
    if dispatch.sm_count(torch.device("cuda")) == 132:
        tiles = {"short": variants.SM90_SHORT, "x2": variants.SM90_LONG_FILL_X2}[want]
        assert plan.variant == variants.Variant(*tiles[64], dtype, 64, False), plan.variant.name


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("b,h,hk,s", [(1, 32, 32, 512), (1, 32, 8, 512), (1, 24, 24, 384), (3, 7, 7, 700)])
def test_causal_d128_grids_of_up_to_twice_the_sms_take_the_short_tiles(b, h, hk, s, dtype):
    """Causal D=128 grids of more than the SM count and at most twice it below FEW_PROGRAMS_CAUSAL_2X_SEQ keys: the
    short tiles (variants.FEW_PROGRAMS_CAUSAL_SHORT; session 46); float64 reference, the variant the plan holds."""
    from dhpfa import api
    api._PLANS.clear()
    _check(b, s, s, h, hk, 128, True, dtype, b * h + s)
    (plan,) = api._PLANS.values()
    programs = b * h * -(-s // variants.FEW_PROGRAMS_ROWS)
    if dispatch.sm_count(torch.device("cuda")) == 132:
        assert 132 < programs <= 264
        assert plan.variant == variants.Variant(*variants.SM90_SHORT[128], dtype, 128, True), plan.variant.name


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("b,h,sq,sk", [(128, 8, 1, 512), (40, 16, 64, 1000), (33, 8, 7, 2500)])
def test_one_query_tile_calls_at_d128_take_the_one_consumer_tiles(b, h, sq, sk, dtype):
    """D=128 non-causal calls of at most FEW_PROGRAMS_ROWS queries per head on more programs than SMs: the one-consumer
    64x128 Gluon tiles (variants.SM90_ONE_TILE_FULL; session 46); float64 reference, the variant the plan holds."""
    from dhpfa import api
    api._PLANS.clear()
    _check(b, sq, sk, h, h, 128, False, dtype, b + sk)
    (plan,) = api._PLANS.values()
    assert plan.variant == variants.Variant(*variants.SM90_ONE_TILE_FULL[128], dtype, 128, False), plan.variant.name


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("sq,sk,b,h,hk,causal", [(1, 5000, 8, 32, 32, False), (1, 9000, 4, 80, 80, True),
                                                 (37, 4500, 3, 100, 100, True), (100, 5000, 4, 32, 8, False),
                                                 (128, 9000, 2, 80, 80, True)])
def test_one_query_tile_per_head_on_many_programs(sq, sk, b, h, hk, causal, dtype, monkeypatch):
    """Decode-like calls (at most FEW_PROGRAMS_ROWS queries per head) on more programs than SMs at D=64 (causal: more
    than twice as many, variants.SM90_FEW_PROGRAMS_CAUSAL_2X takes up to that): the 64-row short tiles
    (SM90_ONE_TILE); up to twice as many queries past the short-tile lengths the 128-row tiles (SM90_TWO_TILES);
    float64 reference (bottom-right causal: the last query sees every key). (One-query calls with H = H_KV as the
    forward kernels': variants.SWAP_DECODE_MIN_GROUP = 2, as in the split-key test above.)"""
    from dhpfa import api
    monkeypatch.setattr(variants, "SWAP_DECODE_MIN_GROUP", 2)
    monkeypatch.setattr(api, "_PLANS", {})  # (the plans made under the patch stay out of the other tests)
    _check(b, sq, sk, h, hk, 64, causal, dtype, sq + sk)
    (plan,) = api._PLANS.values()
    programs = b * h * ((sq + variants.FEW_PROGRAMS_ROWS - 1) // variants.FEW_PROGRAMS_ROWS)
    assert programs > (2 if causal else 1) * dispatch.sm_count(torch.device("cuda"))
    tiles = variants.SM90_ONE_TILE if sq <= variants.FEW_PROGRAMS_ROWS else variants.SM90_TWO_TILES
    assert plan.variant == variants.Variant(*tiles[64], dtype, 64, causal), plan.variant.name


def _one_query_ref(q, k, v):
    """(out (B, 1, H, D), lse (B, H, 1)) in float64 on the tensors' device for one query per sequence, every key
    visible, grouped heads without repeating K/V per query head (dhpfa.reference.attention_ref does, on the CPU:
    gigabytes at these shapes)."""
    b, _, h, d = q.shape
    hk = k.shape[2]
    s = torch.einsum("bkgd,bskd->bkgs", q.double().view(b, hk, h // hk, d), k.double()) / math.sqrt(d)
    ref = torch.einsum("bkgs,bskd->bkgd", torch.softmax(s, -1), v.double()).reshape(b, 1, h, d)
    return ref, torch.logsumexp(s, -1).reshape(b, h, 1)


_PACKED = [(1, 4096, 32, 8, False), (8, 5000, 32, 8, False), (24, 2000, 32, 8, False), (16, 8191, 28, 4, True),
           (4, 9000, 64, 2, False), (2, 777, 128, 1, True)]


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", variants.HEAD_DIMS)
@pytest.mark.parametrize("b,sk,h,hk,causal", _PACKED)
def test_one_query_gqa_runs_the_group_as_rows_of_one_tile(b, sk, h, hk, causal, d, dtype):
    """Decode with grouped heads (one query per sequence): the API runs the h // hk query heads of a key/value head as
    rows of one tile (api.pack_gqa), over grids that take the splits across programs (8 and 64 packed programs), the
    many-program tiles (192), 7 and 32 rows per tile, and MQA with 128 rows (two tiles); bottom-right causal, where
    the query sees every key. Every head of every sequence against float64, out and lse, on poisoned outputs."""
    if d not in (64, 128) and (b, sk) not in ((1, 4096), (16, 8191), (2, 777)):
        pytest.skip("the other head dims run three of the shapes")
    g = torch.Generator(device="cuda").manual_seed(b * sk + d)
    q = torch.randn(b, 1, h, d, device="cuda", dtype=dtype, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g) for _ in range(2))
    out, lse, plan = _poisoned_call(q, k, v, causal)
    assert plan.pack == h // hk and not plan.causal
    ref, ref_lse = _one_query_ref(q, k, v)
    err = float((out.double() - ref).norm() / ref.norm())
    assert err < TOL[dtype], f"rel err {err:.2e} ({plan.variant.name})"
    per_head = (out.double() - ref).norm(dim=-1) / ref.norm(dim=-1)
    assert float(per_head.max()) < 5 * TOL[dtype], "some query head's output is another head's"
    assert torch.allclose(lse.double(), ref_lse, rtol=1e-3, atol=1e-3)


def _per_dim(value, d):
    """A list entry's value at head dim d: {head dim: value, None: the others'} where they differ, else the value."""
    return value.get(d, value[None]) if isinstance(value, dict) else value


def _one_query_decode_call(b, sk, h, hk, d, dtype, causal, monkeypatch):
    """The decode tests' first call (variants.SWAP_DECODE on, no call plans yet: the plans made here stay out of the
    other tests): fresh random q (b, 1, h, d), k, v (b, sk, hk, d) from a generator seeded by the shape, through
    _poisoned_call; the plan's variant is an audited one. Returns (q, k, v, generator, out, lse, plan)."""
    from dhpfa import api
    monkeypatch.setattr(variants, "SWAP_DECODE", True)
    monkeypatch.setattr(api, "_PLANS", {})
    g = torch.Generator(device="cuda").manual_seed(b * sk + d + h)
    q = torch.randn(b, 1, h, d, device="cuda", dtype=dtype, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g) for _ in range(2))
    out, lse, plan = _poisoned_call(q, k, v, causal)
    assert plan.variant in variants.audited_variants()
    return q, k, v, g, out, lse, plan


def _check_one_query_call(q, k, v, causal, out, lse, plan, dtype, g, monkeypatch, kept):
    """A one-query call's checks (the swapped-GEMM and stream decode tests): every head of every sequence against
    float64 (out and lse); bitwise the same over repeated calls and CUDA-graph replays; SDPA's entry point (enable_gqa)
    gives the same bits; where `kept`, a later call on fresh tensors takes the plan's kept launcher (sm90_decode.Kept),
    against float64 on poisoned outputs."""
    from dhpfa import api
    b, _, h, _ = q.shape
    ref, ref_lse = _one_query_ref(q, k, v)
    err = float((out.double() - ref).norm() / ref.norm())
    assert err < TOL[dtype], f"rel err {err:.2e} ({plan.variant.name})"
    per_head = (out.double() - ref).norm(dim=-1) / ref.norm(dim=-1)
    assert float(per_head.max()) < 5 * TOL[dtype], "some query head's output is another head's"
    assert lse.shape == (b, h, 1) and lse.is_contiguous()
    assert torch.allclose(lse.double(), ref_lse, rtol=1e-3, atol=1e-3)
    _assert_repeats_and_replays_equal(q, k, v, causal, out, lse, 3)
    sdpa = dhpfa.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                              enable_gqa=True)
    assert torch.equal(sdpa.transpose(1, 2), out)
    if kept:  # later calls take the plan's kept launchers (sm90_decode.Kept): fresh tensors, poisoned outputs
        from dhpfa.kernels import sm90_decode
        assert isinstance(plan.launcher, sm90_decode.Kept)
        q, k, v = (torch.randn(t.shape, device="cuda", dtype=dtype, generator=g).mul_(2) for t in (q, k, v))
        monkeypatch.setattr(api, "_empty", lambda shape, dt, dev: torch.full(shape, float("nan"), dtype=dt, device=dev))
        plans = len(api._PLANS)
        out, lse = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
        assert len(api._PLANS) == plans and any(p is plan for p in api._PLANS.values())
        ref, ref_lse = _one_query_ref(q, k, v)
        err = float((out.double() - ref).norm() / ref.norm())
        assert err < TOL[dtype], f"rel err {err:.2e} on the kept launchers"
        assert torch.allclose(lse.double(), ref_lse, rtol=1e-3, atol=1e-3)


# (b, sk, h, hk, causal, parts): one query per sequence with 2-8 query heads a key/value head where the swapped-GEMM
# decode kernel runs (variants.swap_decode_parts on 132 SMs: 16 parts for 8 (sequence, key/value head) pairs, 8 for
# 16, 4 pairs in 16 parts at D=128 and 32 at D=64 (from 16,384 keys); 2 pairs from 65,536 keys in 32 parts at D=128, 64
# at D=64 (the D=64 merged build merges up to 64 since session 57); session 59: 32 pairs in 4 parts from 512 keys, 8
# and 16 parts from 1,024, and the fill rule's pair counts (SWAP_DECODE_FILL: 132 // pairs parts, 5-48 pairs at D=64,
# up to 24 pairs and 4,096 keys at D=128); session 60: D=64's 32 parts for 4 pairs from 1,024 keys, the fill's tiers
# (D=64 49-66 pairs from 8,192 keys, D=128 25-30 pairs to 4,096 and 5-8 pairs to 16,384), parts one block apart at odd
# key counts); odd key counts (a last block with one key; parts of unequal lengths), groups of 2 / 4 / 7 / 8,
# bottom-right causal (the query sees every key); then calls the rule leaves to the forward kernels (32 pairs below 512
# keys, 8 pairs below 1,024 keys, 56 pairs below 8,192; at D=128 15 and 24 pairs past 4,096 keys, 6 past 16,384);
# more pairs than SMs run on the stream build (_STREAM_DECODE; session 61's SWAP_DECODE_OVER parts went in session
# 62). (sk and parts: {head dim: value, None: the others'} where they differ.)
_SWAP_DECODE = [(1, 16385, 32, 8, False, 16), (2, 20001, 32, 8, True, 8), (1, 16384, 32, 4, False, {64: 32, None: 16}),
                (1, 30000, 28, 4, True, {64: 32, None: 16}), (2, {64: 4097, None: 16384}, 16, 8, False, 8),
                (1, 65537, 16, 2, False, {64: 64, None: 32}), (3, 16384, 40, 5, False, {64: 8, None: 0}),
                (4, 16384, 32, 8, False, 4), (4, 1029, 32, 8, True, 4), (8, 4099, 28, 4, False, 4),
                (4, 511, 32, 8, False, 0), (1, 2049, 32, 8, False, 16), (2, 4097, 32, 8, True, 8),
                (1, 1000, 32, 8, False, 0), (3, 16384, 32, 8, False, {64: 5, None: 0}),
                (1, 20000, 48, 6, False, {64: 22, None: 0}), (3, 4095, 32, 8, True, 5), (2, 4096, 24, 3, False, 22),
                (7, 2048, 32, 8, False, 0), (1, 16383, 48, 6, True, 22), (1, 2049, 32, 4, True, {64: 32, None: 16}),
                (7, 1031, 32, 4, False, 4), (7, 8193, 32, 8, False, {64: 2, None: 0}),
                # (session 66) MHA decode (H = H_KV): groups of one under the same rule
                (1, 16385, 32, 32, False, 4), (2, 4097, 16, 16, True, 4), (1, 1025, 8, 8, False, 16),
                (1, 65537, 2, 2, False, {64: 64, None: 32}), (3, 20000, 40, 40, False, 0), (2, 1000, 32, 32, False, 0),
                # (session 66) groups of 9-16 on the NQ = 16 builds: the split merge; (session 67) the merged build at
                # half the staged parts (16 pairs x 8, 8 pairs' 11 parts of 4,097 keys, 32 x 4, the fill's counts)
                (1, 16385, 64, 4, False, {64: 32, None: 16}), (1, 4096, 128, 8, True, 16), (1, 4097, 128, 8, False, 16),
                (4, 4096, 64, 4, False, 8), (1, 65537, 32, 2, False, {64: 64, None: 32}),
                (1, 20000, 48, 4, True, {64: 32, None: 16}), (4, 1025, 64, 4, True, 8), (8, 4096, 40, 4, False, 4),
                (5, 4095, 64, 4, False, 6), (3, 16384, 64, 4, True, {64: 11, None: 0}), (7, 1031, 64, 4, False, 4)]


@pytest.mark.parametrize("merged", [False, True], ids=["combine", "merged"])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("b,sk,h,hk,causal,parts", _SWAP_DECODE)
def test_one_query_gqa_on_the_swapped_gemm_decode_kernel(b, sk, h, hk, causal, parts, d, dtype, merged, monkeypatch):
    """Decode with grouped heads on kernels/sm90_decode.py (session 54): S^T = K Q^T with the keys on the WGMMA's M,
    parts merged by attn_varlen_combine. The plan holds the kernel's build and part count (on 132 SMs); every head of
    every sequence against float64 (out and lse) on poisoned outputs; then bitwise the same over repeated calls and
    CUDA-graph replays; and SDPA's entry point (enable_gqa) gives the same bits. (parts 0: the forward kernels run it,
    checked the same way.) With variants.SWAP_DECODE on (the default since session 55); later calls on fresh tensors
    take the plan's kept launchers (sm90_decode.Kept), against float64 on poisoned outputs. merged: with
    variants.SWAP_DECODE_MERGE (the parts merged inside the launch at SWAP_DECODE_MERGE_DIMS: attn_decode_sm90_merged;
    its graph replays reuse one nonce, so each launch's reset of the done-words is what the next relies on; from
    SWAP_DECODE_SPLIT parts attn_decode_sm90_split, whose launches alternate the words' value instead)."""
    monkeypatch.setattr(variants, "SWAP_DECODE_MERGE", merged)
    sk, parts = _per_dim(sk, d), _per_dim(parts, d)
    if h // hk > 8 and not merged:  # (session 66: the plain build with the combine has no NQ = 16 form)
        parts = 0
    q, k, v, g, out, lse, plan = _one_query_decode_call(b, sk, h, hk, d, dtype, causal, monkeypatch)
    if parts:
        assert plan.variant.config.block_m == variants.decode_nq(h // hk), plan.variant.name  # (NQ, session 66)
    if dispatch.sm_count(torch.device("cuda")) == 132:
        assert plan.decode_parts == parts, (plan.decode_parts, plan.variant.name)
        from dhpfa.kernels.sm90_decode import decode_parts
        even = variants.swap_decode_even(b * hk, parts, 132)
        n_parts = decode_parts(k.shape[1], parts, variants.SWAP_DECODE_CONFIG.block_n, even)[0] if parts else 0
        kernel = variants.SWAP_DECODE_KERNEL if not variants.swap_decode_merged(d, parts) \
            else variants.SWAP_DECODE_SPLIT_KERNEL if variants.swap_decode_split(d, n_parts) \
            else variants.SWAP_DECODE_MERGED_KERNEL
        assert (plan.variant.kernel == kernel) == bool(parts), plan.variant.name
    _check_one_query_call(q, k, v, causal, out, lse, plan, dtype, g, monkeypatch, kept=bool(parts))


class _W(int):
    """The program count of a call on the whole-pair build (session 63), where the stream build's is a plain int."""


# (b, sk, h, hk, causal, n_prog): one query per sequence where variants.swap_decode_stream gives the stream build
# (session 61, on 132 SMs: one full wave of (sequence, key/value head) pairs and a last one of at most 0.3 of the SMs
# at D=128 from 1,024 keys, a quarter at D=64 from 2,048, one program an SM at D=128 and two at D=64; session 62: at
# D=128 two to six full waves and such a last one too: 272, 400, 536 and 800 pairs; from 4,096 keys last waves of up
# to 0.46 of the SMs: 184 pairs), or variants.swap_decode_whole a program a pair (session 63, n_prog = the pairs:
# 133-396 pairs at D=128 from 128 keys and 133-264 at D=64 from 512, up to 3,072, 159-204 pairs up to 8,192; up to
# 4,096 keys (D=64: 16,384) k pairs a program: 800 pairs in 200 programs, 600, 1,000, 400: _W), or (session 64) at
# most the SMs' pairs, more than half, a program a pair on the stream build (SWAP_DECODE_ONE: D=128 68-132 pairs at
# 1,024-1,536 keys, 67-88 and 126-132 up to 3,072, 67-88 from 768; D=64 73-132 pairs at 768-1,024 keys, 106-132 up to
# 4,096), or (sessions 64-65, the whole-pair build's PAIR_UNITS schedule, first) at 1,024-4,096 keys D=128 397-1,584
# pairs, at 1,024-65,536 keys D=64 198-1,320, k = ceil(pairs / 264) a program at most in ceil(pairs / k) programs (at
# D=64 at least 198 of them; and 159-204 pairs a program a pair to 65,536 keys too) (_W); odd key
# counts, groups of 2 / 4 / 8, bottom-right causal (the query sees every key); and calls just outside the rules (0:
# another kernel).
# ({head dim: value, None: the others'} where they differ.)
_STREAM_DECODE = [(17, 2049, 32, 8, False, _W(136)), (34, 8193, 32, 4, True, {64: 264, None: 132}),
                  (20, 2047, 32, 8, False, _W(160)), (35, 1025, 8, 4, False, _W(140)),
                  (9, 4001, 64, 16, False, {64: 264, None: 132}), (42, 4096, 32, 4, True, _W(168)),
                  (33, 4096, 32, 4, False, 132), (68, 2049, 32, 4, False, {64: 0, None: _W(272)}),
                  (100, 4097, 32, 4, True, {64: _W(200), None: 132}), (134, 1025, 32, 4, False, {64: 0, None: _W(179)}),
                  (100, 1023, 32, 8, False, _W(200)), (100, 1024, 32, 8, True, _W(200)),
                  (46, 4097, 32, 4, False, _W(184)), (46, 4095, 32, 4, False, _W(184)),
                  (17, 8193, 32, 8, False, {64: 264, None: 132}), (46, 9000, 32, 4, False, {64: _W(184), None: 132}),
                  (99, 1500, 32, 4, True, {64: _W(198), None: _W(396)}), (66, 2048, 16, 4, False, _W(264)),
                  (34, 511, 32, 4, False, {64: 0, None: _W(136)}), (68, 3073, 32, 4, False, {64: 0, None: 132}),
                  (50, 127, 32, 4, False, 0), (50, 129, 32, 4, False, {64: 0, None: _W(200)}),
                  (150, 2000, 16, 4, True, _W(200)), (250, 777, 32, 4, False, _W(200)),
                  (100, 2049, 32, 4, False, _W(200)), (75, 1024, 32, 4, False, {64: 0, None: _W(300)}),
                  (134, 4097, 32, 4, False, {64: 0, None: 132}),
                  (150, 9000, 32, 4, False, {64: _W(200), None: 0}),
                  # (session 64) one wave or less: a program a pair on the stream build (SWAP_DECODE_ONE's tiers)
                  (17, 1025, 32, 4, False, {64: 0, None: 68}), (33, 1000, 32, 4, True, {64: 132, None: 0}),
                  (16, 3072, 32, 8, False, 128), (11, 2047, 32, 8, True, {64: 0, None: 88}),
                  (30, 4096, 16, 4, False, {64: 120, None: 0}), (24, 2048, 32, 4, False, 0),
                  # (session 64) D=128 past the whole-pair rule's other branches: 2 x the SMs' programs in whole pairs
                  (64, 1025, 32, 8, False, _W(256)), (128, 2048, 32, 8, True, _W(256)), (275, 1024, 32, 4, False, _W(220)),
                  # (session 65) the balanced count first: D=128 3-12x the SMs' pairs (the stream build's 420 before),
                  # D=64 from 198 programs up to 16,384 keys (the forward kernels before)
                  (105, 1024, 32, 4, False, _W(210)), (25, 16383, 32, 8, True, {64: _W(200), None: 0}),
                  (165, 4096, 32, 8, False, _W(264)),
                  # (session 66) MHA decode (H = H_KV): groups of one under the same rules
                  (4, 1029, 32, 32, False, 128), (5, 2049, 32, 32, False, _W(160)),
                  (34, 1025, 8, 8, False, {64: 0, None: _W(272)}), (12, 4097, 32, 32, True, {64: _W(192), None: 0}),
                  (40, 1024, 16, 16, False, _W(214)),
                  # (session 66) D=128 12-20x the SMs' pairs up to 2,048 keys: the balanced count (10 pairs a program
                  # at 2,640 pairs)
                  (256, 1024, 32, 8, False, {64: 0, None: _W(256)}), (64, 2048, 32, 32, True, {64: 0, None: _W(256)}),
                  (330, 1025, 32, 8, False, {64: 0, None: _W(264)}),
                  # (session 66) groups of 9-16 on the NQ = 16 stream and whole-pair builds
                  (40, 4096, 64, 4, False, _W(160)), (17, 1025, 128, 8, True, _W(136)), (100, 1024, 64, 4, False, _W(200)),
                  (34, 4096, 64, 4, False, {64: 264, None: 132}), (45, 2000, 48, 4, True, _W(180)),
                  (17, 8193, 128, 8, False, {64: 264, None: 132})]


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("b,sk,h,hk,causal,n_prog", _STREAM_DECODE)
def test_one_query_gqa_on_the_stream_decode_kernel(b, sk, h, hk, causal, n_prog, d, dtype, monkeypatch):
    """Decode with grouped heads on sm90_decode.attn_decode_sm90_stream (session 61): the plan holds the stream build
    and its program count (on 132 SMs; session 63's whole-pair build where the list marks the count _W); every head of
    every sequence against float64 (out and lse) on poisoned outputs; bitwise the same over repeated calls and
    CUDA-graph replays (one nonce: each launch's merges reset the done-words the next relies on); SDPA's entry point
    gives the same bits; later calls on fresh tensors take the plan's kept launcher (sm90_decode.Kept), against float64
    on poisoned outputs."""
    n_prog = _per_dim(n_prog, d)
    q, k, v, g, out, lse, plan = _one_query_decode_call(b, sk, h, hk, d, dtype, causal, monkeypatch)
    if dispatch.sm_count(torch.device("cuda")) == 132:
        stream = plan.variant.kernel == variants.SWAP_DECODE_STREAM_KERNEL
        assert stream == bool(n_prog) and (not stream or plan.decode_parts == n_prog), (plan.variant.name,
                                                                                         plan.decode_parts)
        # (session 63: whole pairs a program, on SWAP_DECODE_WHOLE's ring at the build's NQ: 16 for groups of 9-16)
        whole = stream and dataclasses.replace(plan.variant.config, block_m=8) == variants.SWAP_DECODE_WHOLE[d]
        assert not stream or plan.variant.config.block_m == variants.decode_nq(h // hk), plan.variant.name
        assert whole == isinstance(n_prog, _W), plan.variant.name
    _check_one_query_call(q, k, v, causal, out, lse, plan, dtype, g, monkeypatch,
                          kept=plan.variant.kernel == variants.SWAP_DECODE_STREAM_KERNEL)


@pytest.mark.parametrize("d", [64, 128])
def test_top_left_causal_chooses_by_the_keys_rows_can_see(d):
    """SDPA's is_causal aligns the mask top-left: with 512 queries and 16,384 keys no row sees past key 512, so the
    plan is the one for 512 keys (since session 43 the two-CTA cluster build: two programs a tile), not the split
    across more programs that 16,384 keys would take; float64 reference with the top-left mask."""
    from dhpfa import api
    from dhpfa import tune
    api._PLANS.clear()
    g = torch.Generator(device="cuda").manual_seed(d)
    q = torch.randn(1, 4, 512, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(1, 4, 16384, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    out = dhpfa.scaled_dot_product_attention(q, k, v, is_causal=True)
    (plan,) = api._PLANS.values()
    assert plan.variant == tune.choose(torch.bfloat16, d, True, 512, q.device, sm90=True, programs=32)
    assert plan.variant != tune.choose(torch.bfloat16, d, True, 16384, q.device, sm90=True, programs=32)
    assert plan.variant.config.split_kv <= 2
    rows = torch.arange(0, 512, 7, device="cuda")
    ro, _ = attention_ref_rows(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), d ** -0.5, 0, 0, 3, rows)
    err = float((out[0, 3, rows].double() - ro).norm() / ro.norm())
    assert err < TOL[torch.bfloat16], f"rel err {err:.2e}"


def test_bitwise_deterministic():
    g = torch.Generator(device="cuda").manual_seed(1)
    q, k, v = (torch.randn(4, 2048, 16, 128, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
    first = dhpfa.flash_attn_func(q, k, v, causal=True)
    for _ in range(20):
        assert torch.equal(dhpfa.flash_attn_func(q, k, v, causal=True), first)


@pytest.mark.parametrize("variant", variants.shipped_variants(), ids=lambda v: v.name)
def test_every_shipped_variant_matches_float64(variant):
    """Each variant launched directly (the API reaches some only for few-program grids or through the
    tuner), on poisoned outputs: odd lengths, seq_q != seq_k (bottom-right causal), GQA."""
    d, dt = variant.head_dim, variant.dtype
    g = torch.Generator(device="cuda").manual_seed(d + variant.causal)
    # packed grouped-query builds (TileConfig.pack): 12 queries of groups of 5 heads (two slots a head; tiles of 3 and 2
    # heads, a padding head in the second); 128-row builds 40 queries (8 slots a head, tiles of 2, 2 and 1 heads); the
    # full-grid test below runs groups of 7 (a padding slot)
    b, sq, sk, h, hk = ((2, 40 if variant.config.block_m == 128 else 12, 1000, 10, 2) if variant.config.pack
                        else (2, 333, 1000, 4, 2))
    q = torch.randn(b, sq, h, d, device="cuda", dtype=dt, generator=g)
    k = torch.randn(b, sk, hk, d, device="cuda", dtype=dt, generator=g)
    v = torch.randn(b, sk, hk, d, device="cuda", dtype=dt, generator=g)
    out = torch.full_like(q, float("nan"))
    lse = torch.full((b, h, sq), float("nan"), device="cuda")
    dispatch.launch(variant, q, k, v, out, lse, d ** -0.5, variant.causal, sk - sq)
    torch.cuda.synchronize()
    assert not out.isnan().any() and not lse.isnan().any()
    heads = range(h) if variant.config.pack else (0, h - 1)  # packed: every head (a head's rows in another's place)
    _assert_heads_match(q, k, v, out, lse, sk - sq if variant.causal else None,
                        {(bb, hh) for bb in (0, b - 1) for hh in heads}, TOL[dt])


def _full_grid_params():
    """Every shipped variant; those split 16 ways or more across programs in one pytest-xdist group (their workspaces
    on this grid take up to 20 GB each: several at once beside other workers ran an 80 GB H100 out of memory, session
    34), which `-n N --dist loadgroup` runs on one worker, one at a time."""
    return [pytest.param(v, marks=pytest.mark.xdist_group("big_workspace")) if v.config.split_kv >= 16 else v
            for v in variants.shipped_variants()]


@pytest.mark.parametrize("variant", _full_grid_params(), ids=lambda v: v.name)
def test_every_shipped_variant_on_a_full_grid(variant):
    """Each variant on a 16K-token grid (S = 1024: thousands of programs at 64-row tiles), as the tuner runs
    it, 10 calls queued back to back. The per-variant test above runs small grids, where a race between
    warp-specialised partitions (session 8: the split-key ring) did not show."""
    if variant.config.pack:  # 6 queries of 56 heads over 8 key/value heads, 64 sequences: 512 packed tiles of 7 heads
        if variant.config.block_m == 128:  # 36 queries, 16 sequences: 512 tiles of 2, 2, 2 and 1 heads
            _check_packed_grid(variant, 16, 36, 1024, 56, 8, calls=10)
        else:
            _check_packed_grid(variant, 64, 6, 1024, 56, 8, calls=10)
        return
    s = 1024
    # 32 / 64 parts: 4 of the 16 sequences (still 512-4,096 tiles of 32 / 64 programs each): on all 16 one call's
    # workspace takes 17-22 GB and two calls' overlap in the caching allocator, which ran the big-workspace worker out
    # of memory beside five others once session 49's 24 such variants joined it (call 8; each had passed before)
    batch = 16384 // s // (4 if variant.config.split_kv >= 32 else 1)
    try:
        check_variant_on_grid(variant, batch, 2048 // variant.head_dim, s, calls=10, tol=TOL[variant.dtype],
                              row_step=7)
    finally:
        if variant.config.split_kv:  # the workspaces (up to 18 GB at 64 parts) back to the device: pytest-xdist's
            torch.cuda.empty_cache()  # other workers share it (session 47: one ran out of memory beside 55 GB cached)


@pytest.mark.parametrize("d", [64, 96, 128, 256])
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("b,sq,sk,h,hk", [(3, 4, 700, 32, 2), (2, 12, 1500, 10, 2), (1, 40, 2000, 14, 2),
                                          (2, 64, 999, 4, 2), (5, 3, 300, 6, 3)])
def test_two_consumer_packed_tiles_match_float64(b, sq, sk, h, hk, causal, d):
    """The persistent two-consumer packed builds (variants.SM90_PACKED_PP; session 18), launched directly: 16 heads of
    4 queries a tile (8 a consumer), groups of 5 with 12 queries (tiles of 3 and 2 heads, two slots each), groups of 7
    with 40 (tiles of 2, 2, 2, 1: a consumer of padding), 64 queries of groups of 2, 3 queries of groups of 2; every
    head of every sequence against float64 on poisoned outputs (bottom-right causal)."""
    variant = variants.Variant(*variants.SM90_PACKED_PP[(d, causal)], torch.bfloat16, d, causal)
    assert variant in variants.shipped_variants()
    _check_packed_grid(variant, b, sq, sk, h, hk, calls=3, every_sequence=True)


@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("sq,sk,offset", [(24, 300, 0), (40, 1000, 0), (40, 25, -15), (12, 5, -7)])
def test_two_consumer_packed_tiles_mask_top_left_and_short_keys(sq, sk, offset, d):
    """The two-consumer packed builds with causal offsets other than the bottom-right one with more keys than queries:
    SDPA's top-left alignment (offset 0: query i sees keys 0..i) and fewer keys than queries (rows that see no key
    give O = 0, LSE = -inf); groups of 4 over 2 key/value heads, every head against float64 on poisoned outputs."""
    variant = variants.Variant(*variants.SM90_PACKED_PP[(d, True)], torch.bfloat16, d, True)
    out, lse = _check_packed_grid(variant, 3, sq, sk, 8, 2, calls=1, every_sequence=True, offset=offset)
    if offset < 0:  # rows below -offset see no key
        assert (out[:, :-offset] == 0).all() and (lse[:, :, :-offset] == float("-inf")).all()


def _check_packed_grid(variant, b, sq, sk, h, hk, calls, every_sequence=False, offset=None):
    """A packed variant launched `calls` times back to back on (b, sq, h, d) queries over (b, sk, hk, d) keys (causal
    offset `offset`, default bottom-right, where causal), into poisoned outputs; every head of the first and last
    sequence (every_sequence: of all) against float64. Returns (out, lse)."""
    d, dt = variant.head_dim, variant.dtype
    offset = sk - sq if offset is None else offset
    g = torch.Generator(device="cuda").manual_seed(d + 3 * variant.causal + sq + sk)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=dt, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=dt, generator=g) for _ in range(2))
    out = torch.full_like(q, float("nan"))
    lse = torch.full((b, h, sq), float("nan"), device="cuda")
    for _ in range(calls):
        dispatch.launch(variant, q, k, v, out, lse, d ** -0.5, variant.causal, offset)
    torch.cuda.synchronize()
    assert not out.isnan().any() and not lse.isnan().any()
    _assert_heads_match(q, k, v, out, lse, offset if variant.causal else None,
                        [(bb, hh) for bb in (range(b) if every_sequence else (0, b - 1)) for hh in range(h)], TOL[dt])
    return out, lse


def _assert_heads_match(q, k, v, out, lse, causal_offset, pairs, tol, note="", scale=None):
    """out and lse (B, Sq, H, D) / (B, H, Sq) of each (sequence, head) pair against float64 on every query row (softmax
    scale `scale`, default 1/sqrt(D))."""
    rows = torch.arange(q.shape[1], device="cuda")
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    for bb, hh in pairs:
        ro, rl = attention_ref_rows(q, k, v, scale, causal_offset, bb, hh, rows)
        err = float((out[bb, :, hh].double() - ro).norm() / ro.norm())
        assert err < tol, f"rel err {err:.2e} at b={bb} h={hh}{note}"
        assert torch.allclose(lse[bb, hh].double(), rl, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("causal", [False, True])
def test_repeated_calls_of_one_signature(causal):
    """The API's call plan (api._PLANS) with the dispatcher's launcher: new tensors and values under one
    signature, both entry points, poisoned outputs (a call that wrote nothing would keep the NaNs)."""
    from dhpfa import api
    api._PLANS.clear()
    for seed in range(4):
        g = torch.Generator(device="cuda").manual_seed(seed)
        q, k, v = (torch.randn(2, 8, 333, 128, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
        real_empty = api._empty
        api._empty = lambda *a: real_empty(*a).fill_(float("nan"))
        try:
            out = dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal)
            out_fa, lse = dhpfa.flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                causal=causal, return_lse=True)
        finally:
            api._empty = real_empty
        rows = torch.arange(333, device="cuda")
        ro, rl = attention_ref_rows(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), 128 ** -0.5,
                                    0 if causal else None, 1, 7, rows)
        for o in (out[1, 7], out_fa[1, :, 7]):
            assert float((o.double() - ro).norm() / ro.norm()) < TOL[torch.bfloat16]
        assert torch.allclose(lse[1, 7].double(), rl, rtol=1e-3, atol=1e-3)
    assert len(api._PLANS) == 2 and all(p.launcher is not None for p in api._PLANS.values())


@pytest.mark.parametrize("variant", variants.shipped_variants(), ids=lambda v: v.name)
def test_launched_binary_is_the_audited_binary(variant):
    from dhpfa.audit.compile import compile_offline
    d = variant.head_dim
    sq, h = (13, 8) if variant.config.pack else (300, 4)
    q = torch.randn(2, sq, h, d, device="cuda", dtype=variant.dtype)
    k = torch.randn(2, 200, 2, d, device="cuda", dtype=variant.dtype)
    v = torch.randn_like(k)
    out = torch.empty_like(q)
    lse = torch.empty(2, h, sq, device="cuda", dtype=torch.float32)
    fn = dispatch.kernel_fn(variant.kernel)
    grid, args, kwargs = dispatch.launch_args(variant, q, k, v, out, lse, 0.1, variant.causal, 100)
    if variant.config.cluster:  # launched only in clusters of two (dispatch._launch): the binary the JIT would take
        compiled = fn.warmup(*args, grid=grid, **kwargs)
        dispatch.launch(variant, q, k, v, out, lse, 0.1, variant.causal, 100)
    else:
        compiled = fn[grid](*args, **kwargs)
    offline = compile_offline(fn, args, kwargs, use_cache=False)
    assert hashlib.sha256(compiled.asm["cubin"]).hexdigest() == offline.sha256


def test_flash_attn_order_and_packed_layouts():
    """flash-attn's argument order and packed layouts on the GPU (session 19): a packed qkv (B, S, 3, H, D) called
    positionally (q, dropout_p, softmax_scale, causal) with return_attn_probs, and a packed kv with grouped heads;
    float64 on every head, and the same bits as the call on separate tensors."""
    g = torch.Generator(device="cuda").manual_seed(19)
    qkv = torch.randn(2, 300, 3, 8, 128, device="cuda", dtype=torch.bfloat16, generator=g)
    out, lse, probs = dhpfa.flash_attn_qkvpacked_func(qkv, 0.0, 0.1, True, return_attn_probs=True)
    q, k, v = qkv.unbind(2)
    assert probs is None and torch.equal(out, dhpfa.flash_attn_func(q, k, v, softmax_scale=0.1, causal=True))
    every_head = [(bb, hh) for bb in range(2) for hh in range(8)]
    _assert_heads_match(q, k, v, out, lse, 0, every_head, TOL[torch.bfloat16], scale=0.1)
    kv = torch.randn(2, 700, 2, 2, 128, device="cuda", dtype=torch.bfloat16, generator=g)
    k2, v2 = kv.unbind(2)
    out2, lse2 = dhpfa.flash_attn_kvpacked_func(q, kv, causal=True, return_lse=True)
    assert torch.equal(out2, dhpfa.flash_attn_func(q, k2, v2, causal=True))
    _assert_heads_match(q, k2, v2, out2, lse2, 400, every_head, TOL[torch.bfloat16])


def test_under_torch_compile():
    """dhpfa inside a compiled function (Dynamo may break the graph around the Triton launch)."""
    g = torch.Generator(device="cuda").manual_seed(3)
    q, k, v = (torch.randn(2, 8, 300, 64, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))

    def block(q, k, v):
        return dhpfa.scaled_dot_product_attention(q * 1.0, k, v, is_causal=True) + 1.0
    compiled = torch.compile(block)
    eager = block(q, k, v)
    for _ in range(2):
        assert torch.equal(compiled(q, k, v), eager)


@pytest.mark.parametrize("d,b,sk,swap", [(96, 2, 4096, False), (128, 3, 8192, False), (256, 2, 4096, False),
                                         (128, 2, 4096, True), (64, 4, 4096, True)])
def test_packed_decode_under_torch_compile(d, b, sk, swap):
    """Decode with grouped heads (packed rows, split across programs) inside a compiled function: the same bits as
    eager, and float64 on every head (session 15; packed views and the split's workspace under Dynamo). swap: a call
    the swapped-GEMM decode kernel runs (its kept launcher and workspace under Dynamo; at D=128 two sequences over 4,096
    keys took the packed forward kernels before session 59's rules, three over 8,192 still do)."""
    from dhpfa import api
    g = torch.Generator(device="cuda").manual_seed(d)
    q = torch.randn(b, 1, 32, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(b, sk, 8, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))

    def step(q, k, v):
        return dhpfa.flash_attn_func(q * 1.0, k, v, causal=True) + 0.0
    api._PLANS.clear()
    eager = step(q, k, v)
    (plan,) = api._PLANS.values()
    if dispatch.sm_count(torch.device("cuda")) == 132:
        if swap:
            assert plan.variant.kernel == variants.SWAP_DECODE_MERGED_KERNEL and plan.decode_parts, plan.variant.name
        else:
            assert plan.pack == 4 and plan.variant.config.split_kv, plan.variant.name
    compiled = torch.compile(step)
    for _ in range(2):
        assert torch.equal(compiled(q, k, v), eager)
    ref, _ = _one_query_ref(q, k, v)
    assert float((eager.double() - ref).norm() / ref.norm()) < TOL[torch.bfloat16]


@pytest.mark.parametrize("variant", [v for v in variants.shipped_variants() if v.head_dim == 128
                                     and v.dtype == torch.bfloat16], ids=lambda v: v.name)
def test_cached_launch_equals_jit_launch(variant):
    """The launch cache (dispatch._launchers) on new tensors, poisoned outputs, against a JIT launch; then
    again on the same tensors (Gluon: TMA descriptors from the launcher's descriptor cache) and on new
    tensors written over the same ones (same addresses, other values). Packed grouped-query builds (config.pack) take
    the few queries of grouped heads they run (13 queries of 8 heads, as test_launched_binary_is_the_audited_binary)."""
    g = torch.Generator(device="cuda").manual_seed(7)
    sq, h = (13, 8) if variant.config.pack else (300, 4)
    shape_q, shape_k = (2, sq, h, 128), (2, 200, 2, 128)

    def inputs(seed):
        g.manual_seed(seed)
        return (torch.randn(shape_q, device="cuda", dtype=torch.bfloat16, generator=g),
                torch.randn(shape_k, device="cuda", dtype=torch.bfloat16, generator=g),
                torch.randn(shape_k, device="cuda", dtype=torch.bfloat16, generator=g))

    def run(qkv, out=None, lse=None):
        out = torch.full(shape_q, float("nan"), device="cuda", dtype=torch.bfloat16) if out is None else out
        lse = torch.full((2, h, sq), float("nan"), device="cuda") if lse is None else lse
        kernel = dispatch.launch(variant, *qkv, out, lse, 0.1, variant.causal, shape_k[1] - sq)
        return kernel, out, lse

    def jit(qkv):
        dispatch._FAST = False
        try:
            return run(qkv)
        finally:
            dispatch._FAST = True

    def same(a, b):
        (_, out_a, lse_a), (_, out_b, lse_b) = a, b
        return (not out_a.isnan().any() and torch.equal(out_a, out_b)
                and torch.equal(lse_a.isfinite(), lse_b.isfinite()) and torch.equal(lse_a, lse_b))

    dispatch.clear_launchers()
    first, _, _ = run(inputs(1))  # through the JIT: records the launcher
    assert any(l is not None for l in dispatch._launchers.values()), "no launcher was cached"
    qkv = inputs(2)
    fast = run(qkv)  # through the cache
    assert fast[0] is first
    reference = jit(qkv)
    assert reference[0] is first and same(fast, reference)
    out, lse = fast[1].fill_(float("nan")), fast[2].fill_(float("nan"))
    assert same(run(qkv, out, lse), reference)  # same tensors and outputs again: descriptors reused
    for dst, src in zip(qkv, inputs(3)):  # other values at the same addresses
        dst.copy_(src)
    out.fill_(float("nan")), lse.fill_(float("nan"))
    assert same(run(qkv, out, lse), jit(qkv))


# ---- grids past CUDA's second-axis limit (dispatch.batch_slices) ----------------------------------------------------
def _nan_outputs(monkeypatch):
    """NaN-poisoned API outputs (reference.poison_api_outputs) and no call plans yet; returns the api module."""
    api = poison_api_outputs(monkeypatch)
    monkeypatch.setattr(api, "_PLANS", {})
    return api


@pytest.mark.parametrize("b,sq,sk,h,hk,causal", [(2052, 64, 64, 32, 32, True), (4100, 1, 40, 32, 16, False)],
                         ids=["prefill-64", "decode-gqa"])
def test_dense_grid_past_the_second_axis_limit(monkeypatch, b, sq, sk, h, hk, causal):
    """B x H programs (the packed decode step's B x H_kv) past 65,535 on the Triton tiles' second grid axis: the call
    runs as batch slices. First call (JIT) and second (the cached _Slices launcher) bitwise equal, and equal to calls
    of at most 1,024 entries (grids within the limit); float64 rows at the slices' edges."""
    api = _nan_outputs(monkeypatch)
    g = torch.Generator(device="cuda").manual_seed(b + sq)
    q = torch.randn(b, sq, h, 64, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(b, sk, hk, 64, device="cuda", dtype=torch.bfloat16, generator=g)
    v = torch.randn(b, sk, hk, 64, device="cuda", dtype=torch.bfloat16, generator=g)
    out1, lse1 = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
    (plan,) = api._PLANS.values()
    assert plan.variant.kernel in variants.TRITON_KERNELS, plan.variant.name
    assert isinstance(plan.launcher, dispatch._Slices), "the launch was not sliced"
    out2, lse2 = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
    torch.cuda.synchronize()
    assert not out1.isnan().any() and not lse1.isnan().any()
    assert torch.equal(out1, out2) and torch.equal(lse1, lse2)
    for b0 in range(0, b, 1024):
        o, l_ = dhpfa.flash_attn_func(q[b0:b0 + 1024], k[b0:b0 + 1024], v[b0:b0 + 1024], causal=causal,
                                      return_lse=True)
        assert torch.equal(o, out1[b0:b0 + 1024]) and torch.equal(l_, lse1[b0:b0 + 1024]), b0
    step = plan.launcher.parts[1][0]
    rows = torch.arange(sq, device="cuda")
    for bb, hh in ((0, 0), (step - 1, h - 1), (step, 1), (b - 1, h - 1)):
        ro, rl = attention_ref_rows(q, k, v, 1 / 8, sk - sq if causal else None, bb, hh, rows)
        err = float((out1[bb, rows, hh].double() - ro).norm() / ro.norm())
        assert err < TOL[torch.bfloat16], (bb, hh, err)
        assert torch.allclose(lse1[bb, hh, rows].double(), rl, rtol=1e-3, atol=1e-3)


def test_varlen_grid_past_the_second_axis_limit(monkeypatch):
    """2,100 sequences x 32 heads on the varlen kernel's second grid axis (67,200 programs): sliced launches, first and
    second call bitwise equal and equal to calls over at most 512 sequences; float64 at the slices' edges."""
    api = _nan_outputs(monkeypatch)
    g = torch.Generator().manual_seed(5)
    lens = torch.randint(1, 65, (2100,), generator=g)
    cu = torch.zeros(2101, dtype=torch.int32)
    cu[1:] = lens.cumsum(0)
    cu = cu.cuda()
    gd = torch.Generator(device="cuda").manual_seed(6)
    q, k, v = (torch.randn(int(lens.sum()), 32, 64, device="cuda", dtype=torch.bfloat16, generator=gd)
               for _ in range(3))
    out1, lse1 = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 64, 64, causal=True, return_lse=True)
    (plan,) = api._PLANS.values()
    assert isinstance(plan.launcher, dispatch._Slices), "the launch was not sliced"
    out2, lse2 = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 64, 64, causal=True, return_lse=True)
    torch.cuda.synchronize()
    assert not out1.isnan().any() and not lse1.isnan().any()
    assert torch.equal(out1, out2) and torch.equal(lse1, lse2)
    cl = cu.tolist()
    for b0 in range(0, 2100, 512):
        b1 = min(2100, b0 + 512)
        r0, r1 = cl[b0], cl[b1]
        o, l_ = dhpfa.flash_attn_varlen_func(q[r0:r1], k[r0:r1], v[r0:r1], cu[b0:b1 + 1] - r0, cu[b0:b1 + 1] - r0,
                                             64, 64, causal=True, return_lse=True)
        assert torch.equal(o, out1[r0:r1]) and torch.equal(l_, lse1[:, r0:r1]), b0
    step = plan.launcher.parts[1][0]
    for s in (0, step - 1, step, 2099):
        r0, r1 = cl[s], cl[s + 1]
        rows = torch.arange(r1 - r0, device="cuda")
        for hh in (0, 31):
            ro, rl = attention_ref_rows(q[None, r0:r1], k[None, r0:r1], v[None, r0:r1], 1 / 8, 0, 0, hh, rows)
            err = float((out1[r0:r1, hh].double() - ro).norm() / ro.norm())
            assert err < TOL[torch.bfloat16], (s, hh, err)
            assert torch.allclose(lse1[hh, r0:r1].double(), rl, rtol=1e-3, atol=1e-3)


# ---- batch entries past 32-bit offsets (api.OFFSET_LIMIT): the TMA-descriptor kernels -------------------------------
# (buffers of several GB each: in the full-grid tests' xdist group, one at a time; four of them ran out of memory beside
# the other workers in session 35's call 3)
@pytest.mark.xdist_group("big_workspace")
@pytest.mark.parametrize("d,s,h,st_s,st_b,causal,kernel", [
    (128, 1100, 16, 2 ** 21, 0, True, "attn_fwd_sm90_ws"),   # entries of 2.3e9 elements: the two-consumer build
    (128, 1100, 2, 2 ** 21, 0, True, "attn_fwd_sm90_ws"),    # ... few programs: keys split across two (workspace)
    (64, 64, 4, 256, 2 ** 31 + 2 ** 10, False, "attn_fwd_tma"),  # a batch stride past 2^31: the 64-row TMA tiles
    (32, 5000, 2, 2 ** 19, 0, False, "attn_fwd_tma"),         # D=32 at 5,000 keys (the pointer kernel's): TMA tiles
    (32, 5000, 1, 2 ** 19, 0, False, "attn_fwd_sm90_ws"),     # ... 79 programs: the two-CTA clusters two an SM
], ids=["d128-persistent", "d128-split-kv", "d64-batch-stride", "d32-fallback", "d32-cluster"])
def test_wide_batch_entries(monkeypatch, d, s, h, st_s, st_b, causal, kernel):
    """q, k, v whose batch entries span 2^31 elements or more (long rows in a larger buffer, or a batch stride past
    2^31) run on a TMA-descriptor kernel (the pointer kernel's choice falls back to the same head dim's TMA tiles):
    out bitwise equal to the same data in contiguous tensors where those run the same variant, float64 on rows at both
    ends."""
    api = _nan_outputs(monkeypatch)
    b = 2 if st_b else 1
    g = torch.Generator(device="cuda").manual_seed(d + s)

    def wide():
        buf = torch.empty((b - 1) * (st_b or 0) + (s - 1) * st_s + h * d, device="cuda", dtype=torch.bfloat16)
        t = buf.as_strided((b, s, h, d), (st_b or s * st_s, st_s, d, 1))
        t.copy_(torch.randn(b, s, h, d, device="cuda", dtype=torch.bfloat16, generator=g))
        return t
    q, k, v = wide(), wide(), wide()
    out, lse = dhpfa.flash_attn_func(q, k, v, causal=causal, return_lse=True)
    (plan,) = api._PLANS.values()
    assert plan.variant.kernel == kernel, plan.variant.name
    qc, kc, vc = (t.contiguous() for t in (q, k, v))
    del q, k, v
    torch.cuda.empty_cache()
    ref_o, ref_l = dhpfa.flash_attn_func(qc, kc, vc, causal=causal, return_lse=True)
    torch.cuda.synchronize()
    assert not out.isnan().any() and not lse.isnan().any()
    if list(api._PLANS.values())[-1].variant == plan.variant:
        assert torch.equal(out, ref_o) and torch.equal(lse, ref_l)
    rows = torch.unique(torch.tensor([0, 1, s // 2, s - 2, s - 1], device="cuda"))
    for bb, hh in {(0, 0), (b - 1, h - 1)}:
        ro, rl = attention_ref_rows(qc, kc, vc, d ** -0.5, 0 if causal else None, bb, hh, rows)
        err = float((out[bb, rows, hh].double() - ro).norm() / ro.norm())
        assert err < TOL[torch.bfloat16], (bb, hh, err)
        assert torch.allclose(lse[bb, hh, rows].double(), rl, rtol=1e-3, atol=1e-3)
