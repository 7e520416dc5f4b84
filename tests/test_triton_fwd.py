"""The portable Triton kernel against a float64 reference, in the CPU interpreter (CI) and on a GPU."""
import math

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants

from .reference import attention_ref, poison_api_outputs, rel_err

pytestmark = pytest.mark.interpreter

# fp16 keeps ~11 bits; fp32 takes the exact (ieee) dot path. bf16 is not run here: Triton 3.6's
# interpreter computes it wrongly (measured; see ../shared/protocols.md). bf16 is tested on the GPU.
TOL = {torch.float16: 2e-3, torch.float32: 1e-5}


@pytest.fixture(autouse=True, params=variants.TRITON_KERNELS)
def kernel(request, monkeypatch):
    """Every test runs on each kernel (pointer loads, and TMA descriptors)."""
    monkeypatch.setattr(variants, "INTERPRETER_DEFAULT", (request.param, variants.INTERPRETER_DEFAULT[1]))
    return request.param


@pytest.fixture(autouse=True)
def poisoned_outputs(monkeypatch):
    """Output buffers start as NaN, so an element the kernel fails to write shows up."""
    poison_api_outputs(monkeypatch)


def _poisoned_run(q, k, v, **kw):
    return dhpfa.flash_attn_func(q, k, v, return_lse=True, **kw)


def _check(b, sq, sk, h, hk, d, causal, dtype, gen, scale=None, transform=None):
    q = torch.randn(b, sq, h, d, generator=gen).to(dtype)
    k = torch.randn(b, sk, hk, d, generator=gen).to(dtype)
    v = torch.randn(b, sk, hk, d, generator=gen).to(dtype)
    if transform is not None:
        q, k, v = transform(q, k, v)
    out, lse = _poisoned_run(q, k, v, causal=causal, softmax_scale=scale)
    ref_out, ref_lse = attention_ref(q, k, v, scale or 1 / math.sqrt(d), sk - sq if causal else None)
    assert out.shape == (b, sq, h, d) and out.dtype == dtype
    assert lse.shape == (b, h, sq) and lse.dtype == torch.float32
    assert not out.isnan().any(), "NaN in output (unwritten element or empty-row NaN)"
    err = rel_err(out, ref_out)
    assert err < TOL[dtype], f"relative error {err:.2e} >= {TOL[dtype]}"
    finite = torch.isfinite(ref_lse)
    assert torch.equal(torch.isfinite(lse), finite), "lse is -inf exactly on rows with no visible key"
    assert torch.allclose(lse[finite].double(), ref_lse[finite], rtol=1e-4, atol=1e-4)
    assert torch.all(out.double()[(~finite).permute(0, 2, 1)] == 0), "rows with no visible key must be 0"


@pytest.mark.parametrize("d", variants.HEAD_DIMS)
@pytest.mark.parametrize("causal", [False, True])
def test_every_head_dim(d, causal):
    gen = torch.Generator().manual_seed(d * 2 + causal)
    _check(1, 33, 47, 2, 1, d, causal, torch.float16, gen)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
@pytest.mark.parametrize("sq,sk", [(1, 1), (1, 70), (70, 1), (37, 37), (50, 19), (19, 50), (64, 64)])
@pytest.mark.parametrize("causal", [False, True])
def test_seqlens_and_causal_alignment(dtype, sq, sk, causal):
    gen = torch.Generator().manual_seed(sq * 1000 + sk)
    _check(2, sq, sk, 2, 2, 64, causal, dtype, gen)


@pytest.mark.parametrize("h,hk", [(4, 1), (4, 2), (6, 3)])
def test_gqa_mqa(h, hk):
    _check(2, 29, 41, h, hk, 32, True, torch.float16, torch.Generator().manual_seed(h * 10 + hk))


@pytest.mark.parametrize("h,hk,sk", [(8, 2, 70), (4, 1, 1), (6, 3, 37), (12, 4, 129)])
@pytest.mark.parametrize("causal", [False, True])
def test_one_query_gqa_runs_the_group_as_rows_of_one_tile(h, hk, sk, causal):
    """Decode (one query per sequence) with grouped heads: the plan packs the h // hk query heads of a key/value head
    as rows of one tile (api.pack_gqa), bottom-right causal included (the query sees every key), and out and lse
    still match float64 per query head."""
    api._PLANS.clear()
    _check(2, 1, sk, h, hk, 64, causal, torch.float16, torch.Generator().manual_seed(h * 100 + sk + causal))
    assert [p.pack for p in api._PLANS.values()] == [h // hk]
    assert not any(p.causal for p in api._PLANS.values()), "a packed tile runs unmasked"


def test_one_query_gqa_packs_strided_heads():
    """Packing reads q's head stride: q heads from a wider buffer (head stride 2 x head_dim)."""
    def strided(q, k, v):
        wide = torch.randn(*q.shape[:2], q.shape[2], 2 * q.shape[3]).to(q.dtype)
        wide[..., : q.shape[3]] = q
        return wide[..., : q.shape[3]], k, v
    api._PLANS.clear()
    _check(3, 1, 50, 8, 2, 32, False, torch.float16, torch.Generator().manual_seed(9), transform=strided)
    assert [p.pack for p in api._PLANS.values()] == [4]


def test_one_query_top_left_causal_is_not_packed():
    """SDPA's is_causal aligns top-left: one query sees key 0 only, so the group cannot run as unmasked rows."""
    gen = torch.Generator().manual_seed(4)
    q, k, v = (torch.randn(2, hh, s, 64, generator=gen).half() for hh, s in ((8, 1), (2, 30), (2, 30)))
    api._PLANS.clear()
    for causal in (False, True):
        out = dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
        ref = torch.nn.functional.scaled_dot_product_attention(q.double(), k.double(), v.double(),
                                                               is_causal=causal, enable_gqa=True)
        assert rel_err(out, ref) < TOL[torch.float16]
    assert sorted(p.pack for p in api._PLANS.values()) == [0, 4]
    assert api.pack_gqa(1, 30, 8, 2, True, 0) == 0 and api.pack_gqa(1, 30, 8, 2, True, 29) == 4
    assert api.pack_gqa(2, 30, 8, 2, False, 28) == 0 and api.pack_gqa(1, 30, 8, 8, False, 29) == 0


def test_fully_masked_rows_are_zero_and_lse_neg_inf():
    # Bottom-right causal with sq > sk: the first sq - sk query rows see no key.
    gen = torch.Generator().manual_seed(7)
    q = torch.randn(1, 40, 2, 32, generator=gen).half()
    k = torch.randn(1, 8, 2, 32, generator=gen).half()
    v = torch.randn(1, 8, 2, 32, generator=gen).half()
    out, lse = _poisoned_run(q, k, v, causal=True)
    assert torch.all(out[:, :32] == 0)
    assert torch.all(lse[:, :, :32] == float("-inf"))
    assert torch.isfinite(lse[:, :, 32:]).all()


def test_non_contiguous_inputs():
    def strided(q, k, v):
        # q from a packed qkv-like buffer; k, v as transposed (B, H, S, D) storage; D-slice of a wider buffer.
        b, sq, h, d = q.shape
        packed = torch.empty(b, sq, 3, h, d, dtype=q.dtype)
        packed[:, :, 1] = q
        kk = k.transpose(1, 2).contiguous().transpose(1, 2)
        wide = torch.zeros(*v.shape[:3], v.shape[3] * 2, dtype=v.dtype)
        wide[..., : v.shape[3]] = v
        return packed[:, :, 1], kk, wide[..., : v.shape[3]]
    _check(2, 45, 30, 2, 2, 64, False, torch.float16, torch.Generator().manual_seed(3), transform=strided)


def test_softmax_scale_and_spiky_inputs():
    gen = torch.Generator().manual_seed(11)
    _check(1, 40, 40, 2, 2, 64, False, torch.float32, gen, scale=0.9)
    _check(1, 40, 40, 2, 2, 64, True, torch.float32, gen, scale=0.01)

    def spiky(q, k, v):
        return q * 8, k * 8, v
    _check(1, 40, 40, 2, 2, 64, False, torch.float32, gen, transform=spiky)


def test_sdpa_matches_torch_top_left_causal():
    gen = torch.Generator().manual_seed(5)
    q = torch.randn(2, 4, 23, 64, generator=gen)
    k = torch.randn(2, 2, 35, 64, generator=gen)
    v = torch.randn(2, 2, 35, 64, generator=gen)
    for causal in (False, True):
        out = dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
        ref = torch.nn.functional.scaled_dot_product_attention(q.double(), k.double(), v.double(),
                                                               is_causal=causal, enable_gqa=True)
        assert out.shape == ref.shape and out.is_contiguous()
        assert rel_err(out, ref) < 1e-5


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=st.integers(1, 2), sq=st.integers(1, 80), sk=st.integers(1, 80), group=st.sampled_from([1, 2]),
       hk=st.integers(1, 2), d=st.sampled_from(variants.HEAD_DIMS), causal=st.booleans(),
       seed=st.integers(0, 2 ** 31 - 1))
def test_fuzz_shapes(b, sq, sk, group, hk, d, causal, seed):
    _check(b, sq, sk, hk * group, hk, d, causal, torch.float16, torch.Generator().manual_seed(seed))


def test_row_reference_matches_full_reference():
    """The sampled-rows reference the GPU tests use agrees with the full one (causal, GQA)."""
    from .reference import attention_ref, attention_ref_rows
    g = torch.Generator().manual_seed(2)
    q, k, v = torch.randn(2, 30, 4, 32, generator=g), torch.randn(2, 50, 2, 32, generator=g), \
        torch.randn(2, 50, 2, 32, generator=g)
    full, lse = attention_ref(q, k, v, 0.2, causal_offset=-5)
    rows = torch.tensor([0, 4, 5, 17, 29])
    for b, h in ((0, 0), (1, 3)):
        out, lse_rows = attention_ref_rows(q, k, v, 0.2, -5, b, h, rows)
        assert torch.allclose(out, full[b, rows, h], atol=1e-12)
        assert torch.equal(torch.isfinite(lse_rows), torch.isfinite(lse[b, h, rows]))


def test_division_magic_is_exact_below_2_16():
    """attn_fwd_tma finds its batch, head and key/value head by multiplying with triton_fwd.division_magic's numbers
    (block_info.query_tile_magic): n // d == ((n * magic) >> 32) - n for every n < 2^16 and the divisors checked here
    (all up to 1,024 and some larger ones up to the largest), and the magic is at least 2^32 (passed as int64, one
    binary). Divisors outside [1, 65535] are refused with the argument's name."""
    import numpy as np
    from dhpfa.kernels.triton_fwd import division_magic
    n = np.arange(1 << 16, dtype=np.int64)
    for d in [*range(1, 1025), 2048, 4096, 32768, 65521, 65534, 65535, 3 * 5 * 7 * 11 * 13, 40961]:
        m = division_magic(d, "heads")
        assert m >= 1 << 32
        assert np.array_equal(((n * m) >> 32) - n, n // d), d
    for bad in (0, 1 << 16):
        with pytest.raises(ValueError, match="heads"):
            division_magic(bad, "heads")


def _recorded_grids(monkeypatch, module, name):
    """Record the grid of every launch that module.name (a launch-args builder) returns."""
    grids, real = [], getattr(module, name)

    def recording(*a, **kw):
        out = real(*a, **kw)
        grids.append(tuple(out[0]))
        return out
    monkeypatch.setattr(module, name, recording)
    return grids


@pytest.mark.parametrize("b,h,hk,sq,causal", [(9, 2, 2, 37, True), (6, 3, 1, 20, False), (7, 8, 2, 1, True)])
def test_grid_past_the_second_axis_limit_runs_as_batch_slices(monkeypatch, b, h, hk, sq, causal):
    """CUDA's grids take at most 65,535 programs on the second axis, where the Triton kernels put batch x heads: a call
    past it runs as several launches of the same binary on slices of the batch (dispatch.batch_slices), each within
    the limit and starting at a multiple of 4 entries. The limit is lowered here so that the interpreter splits small
    calls (a decode step with grouped heads included: its packed rows count the key/value heads); out and lse must
    still match float64 in every slice, the tail slice included."""
    from dhpfa.kernels import dispatch
    monkeypatch.setattr(dispatch, "MAX_GRID_Y", 12)
    grids = _recorded_grids(monkeypatch, dispatch, "launch_args")
    api._PLANS.clear()
    _check(b, sq, sq + 5, h, hk, 32, causal, torch.float16, torch.Generator().manual_seed(b * 10 + h))
    assert grids[0][1] > 12, "the whole call's grid is past the lowered limit"
    runs = grids[1:]
    per_entry = grids[0][1] // b
    assert len(runs) == -(-b // (12 // per_entry // 4 * 4)) >= 2 and all(g[1] <= 12 for g in runs)
    assert sum(g[1] for g in runs) == grids[0][1], "the slices cover the batch once"


def test_batch_slices_start_at_multiples_of_four_and_refuse_too_many_heads(monkeypatch):
    from dhpfa.kernels import dispatch
    assert dispatch.batch_slices(4095, 16) == [(0, 4095)]  # 65,520 programs
    assert dispatch.batch_slices(4096, 16) == [(0, 4092), (4092, 4096)]  # 65,536
    assert dispatch.batch_slices(70000, 1) == [(0, 65532), (65532, 70000)]
    assert dispatch.batch_slices(4, 16383) == [(0, 4)]
    assert dispatch.batch_slices(5, 16383) == [(0, 4), (4, 5)]
    with pytest.raises(ValueError, match=r"^q: 16384 heads per batch entry .* at most 16383 are supported"):
        dispatch.batch_slices(5, 16384)


@pytest.mark.parametrize("wide", ["q", "k", "out"])
def test_batch_entries_past_32_bit_offsets_run_on_descriptors_only(monkeypatch, kernel, wide):
    """A batch entry of q, k or v spanning 2^31 elements or more (or an output that large) runs on the kernels that
    address through TMA descriptors (variants.DESCRIPTOR_KERNELS: the copy engine's 64-bit strides, 64-bit LSE
    offsets), and is refused by name on the pointer kernel (32-bit offsets within an entry). The limit
    (api.OFFSET_LIMIT) is lowered to 3,000 elements here so that small tensors cross it (q, k, v of 40 x 2 x 32 =
    2,560 do not); out and lse still match float64."""
    monkeypatch.setattr(api, "OFFSET_LIMIT", 3000)
    api._PLANS.clear()
    gen = torch.Generator().manual_seed(7)

    def spread(q, k, v):
        if wide == "q":  # rows 96 elements apart: 39 x 96 + 64 = 3,808
            buf = torch.zeros(q.shape[0], q.shape[1], 96, dtype=q.dtype)
            buf[..., :64] = q.flatten(2)
            return buf[..., :64].unflatten(2, (2, 32)), k, v
        if wide == "k":  # every other head slot of a wider buffer: 39 x 128 + 32 + 64 = 5,088
            buf = torch.zeros(k.shape[0], k.shape[1], 4, 32, dtype=k.dtype)
            buf[:, :, ::2] = k
            return q, buf[:, :, ::2], v
        return q[:, :1].contiguous().expand(q.shape), k, v  # out: one query row seen 100 times (stride 0), out 100 x 64 = 6,400
    sq = 100 if wide == "out" else 40
    if kernel == "attn_fwd":
        q, k, v = spread(*(torch.randn(2, s, 2, 32, generator=gen).half() for s in (sq, 40, 40)))
        with pytest.raises(ValueError, match=rf"^{wide}: one batch entry spans \d+ elements; the kernel indexes"):
            dhpfa.flash_attn_func(q, k, v)
        return
    _check(2, sq, 40, 2, 2, 32, True, torch.float16, gen, transform=spread)
    assert len(api._PLANS) == 1
