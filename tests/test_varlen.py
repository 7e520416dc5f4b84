"""flash_attn_varlen_func: sequences of different lengths packed along the rows, against a float64 reference of each
sequence, in the CPU interpreter (CI) and on a GPU (marked gpu)."""
import math

import pytest
import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants

from .reference import attention_ref, poison_api_outputs, rel_err

TOL = {torch.float16: 2e-3, torch.float32: 1e-5, torch.bfloat16: 1e-2}


@pytest.fixture(autouse=True)
def poisoned_outputs(monkeypatch):
    """Output buffers start as NaN, so an element the kernel fails to write shows up."""
    poison_api_outputs(monkeypatch)


def offsets(lens, device):
    cu = [0]
    for n in lens:
        cu.append(cu[-1] + n)
    return torch.tensor(cu, dtype=torch.int32, device=device)


def packed(lens_q, lens_k, h, hk, d, dtype, device, gen, pad_q=0, pad_k=0):
    tq, tk = sum(lens_q) + pad_q, sum(lens_k) + pad_k
    q = torch.randn(tq, h, d, generator=gen).to(device, dtype)
    k = torch.randn(tk, hk, d, generator=gen).to(device, dtype)
    v = torch.randn(tk, hk, d, generator=gen).to(device, dtype)
    return q, k, v, offsets(lens_q, device), offsets(lens_k, device)


def check_sequences(out, lse, q, k, v, cu_q, cu_k, scale, causal, tol, window=None, softcap=0.0):
    """Every sequence's rows against float64 attention of that sequence alone; rows past the last offset unwritten."""
    cq, ck = cu_q.tolist(), cu_k.tolist()
    for b in range(len(cq) - 1):
        sq, sk = cq[b + 1] - cq[b], ck[b + 1] - ck[b]
        if sq == 0:
            continue
        qs, ks, vs = q[cq[b]:cq[b + 1]][None], k[ck[b]:ck[b + 1]][None], v[ck[b]:ck[b + 1]][None]
        if sk == 0:  # no key at all: every row is empty (0 and -inf)
            assert torch.all(out[cq[b]:cq[b + 1]] == 0) and torch.all(lse[:, cq[b]:cq[b + 1]] == float("-inf"))
            continue
        ro, rl = attention_ref(qs, ks, vs, scale, sk - sq if causal else None, window, softcap)
        o = out[cq[b]:cq[b + 1]]
        assert not o.isnan().any(), f"sequence {b}: NaN (an unwritten element)"
        finite = torch.isfinite(rl[0])  # (H, Sq)
        if finite.any():
            err = rel_err(o[None], ro)
            assert err < tol, f"sequence {b} ({sq} x {sk}): relative error {err:.2e} >= {tol}"
        l_b = lse[:, cq[b]:cq[b + 1]].cpu()
        assert torch.equal(torch.isfinite(l_b), finite), f"sequence {b}: lse -inf exactly on rows with no visible key"
        assert torch.allclose(l_b[finite].double(), rl[0][finite], rtol=1e-3, atol=1e-3)
        assert torch.all(o.cpu().double().permute(1, 0, 2)[~finite] == 0), "rows with no visible key must be 0"
    assert out[cq[-1]:].isnan().all() and lse[:, cq[-1]:].isnan().all(), "rows outside every sequence are not written"


def run_case(lens_q, lens_k, h, hk, d, causal, dtype, device="cpu", seed=0, scale=None, pad_q=0, pad_k=0,
             window=(-1, -1), softcap=0.0, spread=1.0):
    gen = torch.Generator().manual_seed(seed)
    q, k, v, cu_q, cu_k = packed(lens_q, lens_k, h, hk, d, dtype, device, gen, pad_q, pad_k)
    q = (q.float() * spread).to(dtype)
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, max(lens_q), max(max(lens_k), 1), softmax_scale=scale,
                                            causal=causal, window_size=window, softcap=softcap, return_lse=True)
    assert out.shape == q.shape and out.dtype == dtype and lse.shape == (h, q.shape[0]) and lse.dtype == torch.float32
    ref_window = (window[0], 0 if causal else window[1]) if window != (-1, -1) else None
    check_sequences(out, lse, q, k, v, cu_q, cu_k, scale or 1 / math.sqrt(d), causal, TOL[dtype], ref_window, softcap)
    return q, k, v, cu_q, cu_k, out, lse


# ---- CPU interpreter (CI) -------------------------------------------------------------------------------------------
interp = pytest.mark.interpreter


@interp
@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("lens_q,lens_k", [
    ([5, 33, 1, 17], [5, 33, 1, 17]),       # self-attention, odd lengths, a one-row sequence
    ([3, 40, 16], [20, 7, 50]),             # seq_q != seq_k both ways (causal: bottom-right per sequence)
    ([9, 0, 12], [9, 4, 0]),                # an empty query sequence; a sequence with no keys
])
def test_sequences_against_float64(lens_q, lens_k, causal, dtype):
    run_case(lens_q, lens_k, 2, 2, 64, causal, dtype)


WINDOWS = [((4, 0), False), ((3, 5), False), ((-1, 2), False), ((0, 0), False), ((7, -1), False), ((20, 20), False),
           ((5, -1), True), ((40, 3), True)]


@interp
@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
@pytest.mark.parametrize("window,causal", WINDOWS)
def test_local_windows_against_float64(window, causal, dtype):
    """flash-attn's window_size, bottom-right aligned per sequence, causal calls with right side 0: windows narrower
    than a 16-row tile, wider than several (masked blocks at both ends and unmasked ones between), one side
    unbounded; rows that see no key (0 and -inf); seq_q != seq_k both ways."""
    run_case([5, 70, 1, 33], [5, 50, 9, 64], 2, 1, 32, causal, dtype, seed=sum(window), window=window)


@interp
@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
@pytest.mark.parametrize("softcap,window,causal", [(5.0, (-1, -1), False), (2.0, (-1, -1), True),
                                                    (30.0, (10, 0), False), (1.5, (6, 6), True)])
def test_softcap_against_float64(softcap, window, causal, dtype):
    """flash-attn's softcap (scores softcap * tanh(score / softcap)) on spread-out scores (q x 4), where the cap
    changes the result, alone and with windows."""
    run_case([17, 40, 3], [17, 52, 30], 2, 2, 64, causal, dtype, seed=int(softcap * 10), softcap=softcap, spread=4.0,
             window=window)


@interp
def test_softcap_and_window_change_the_result():
    """The options reach the kernel: each gives other bits than the plain call."""
    gen = torch.Generator().manual_seed(8)
    q, k, v, cu_q, cu_k = packed([30], [30], 2, 2, 32, torch.float16, "cpu", gen)
    plain = dhpfa.flash_attn_varlen_func(q * 4, k, v, cu_q, cu_k, 30, 30)
    assert not torch.equal(plain, dhpfa.flash_attn_varlen_func(q * 4, k, v, cu_q, cu_k, 30, 30, softcap=3.0))
    assert not torch.equal(plain, dhpfa.flash_attn_varlen_func(q * 4, k, v, cu_q, cu_k, 30, 30, window_size=(8, 8)))


@interp
@pytest.mark.parametrize("kw", [dict(window_size=(6, 0), causal=True), dict(window_size=(3, 9)),
                                dict(softcap=4.0, causal=True), dict(softcap=2.0, window_size=(-1, 5))])
def test_dense_call_with_window_or_softcap(kw):
    """flash_attn_func with a window or a soft-cap (the varlen kernel over B equal sequences): out and lse in the
    dense layouts against float64, strided (packed qkv) inputs included."""
    gen = torch.Generator().manual_seed(9)
    qkv = (torch.randn(2, 37, 3, 2, 32, generator=gen) * 2).half()
    q, k, v = qkv.unbind(2)
    out, lse = dhpfa.flash_attn_func(q, k, v, return_lse=True, **kw)
    causal = kw.get("causal", False)
    window = kw.get("window_size", (-1, -1))
    ref, ref_lse = attention_ref(q, k, v, 1 / math.sqrt(32), 0 if causal else None,
                                 window if window != (-1, -1) else None, kw.get("softcap", 0.0))
    assert out.shape == q.shape and lse.shape == (2, 2, 37) and lse.is_contiguous()
    finite = torch.isfinite(ref_lse)
    assert rel_err(out, ref) < TOL[torch.float16] and torch.equal(torch.isfinite(lse), finite)
    assert torch.allclose(lse[finite].double(), ref_lse[finite], rtol=1e-3, atol=1e-3)
    out2, lse2, none = dhpfa.flash_attn_func(q, k, v, return_attn_probs=True, **kw)
    assert torch.equal(out2, out) and torch.equal(lse2, lse) and none is None


# causal or not, a window, a soft-cap: the option mixes the grouped and split layouts are checked on
OPTION_CASES = [dict(causal=True), dict(causal=False), dict(causal=True, window=(6, 0)),
                dict(causal=False, window=(9, 3)), dict(causal=True, softcap=2.0, spread=3.0)]


@pytest.fixture(params=[False, True], ids=["rows", "grouped"])
def grouped(request, monkeypatch):
    """Run the test with the grouped-query heads as rows of one tile (GROUP) for every call, and without."""
    monkeypatch.setattr(variants, "VARLEN_GROUP_MAX_Q", 10 ** 9 if request.param else 0)
    monkeypatch.setattr(api, "_PLANS", {})
    return request.param


@interp
@pytest.mark.parametrize("case", OPTION_CASES)
def test_grouped_heads_as_rows(grouped, case):
    """GROUP (the group's query heads as rows (position, head) of one tile): a decode step (one query per sequence),
    a few queries, a long prefill, seq_q != seq_k, 4 query heads per key/value head, against float64; the same with
    each head its own tile."""
    case = dict(case)
    causal = case.pop("causal")
    run_case([1, 3, 1, 37, 20], [50, 3, 17, 40, 9], 8, 2, 32, causal, torch.float16, seed=21, **case)


@pytest.fixture(params=[1, 3], ids=["whole", "split3"])
def split(request, monkeypatch):
    """Run the test with each tile's key blocks split across 3 programs (attn_varlen_combine merges them), and not."""
    monkeypatch.setattr(variants, "VARLEN_SPLIT_FORCE", request.param if request.param > 1 else None)
    monkeypatch.setattr(api, "_PLANS", {})
    return request.param


@interp
@pytest.mark.parametrize("case", OPTION_CASES)
def test_split_across_programs(split, grouped, case):
    """SPLIT: parts of each tile's key blocks in programs of their own, merged by attn_varlen_combine: decode steps,
    few queries, a prefill, sequences without keys and parts without a visible key (3 parts of 3 keys), with and
    without grouped heads, against float64."""
    case = dict(case)
    causal = case.pop("causal")
    run_case([1, 3, 1, 37, 20, 2], [50, 3, 17, 40, 9, 0], 8, 2, 32, causal, torch.float16, seed=23, **case)


def test_split_rule_picks_measured_counts(monkeypatch):
    """variants.varlen_splits on session 36's decode shapes (132 SMs; grouped tiles, programs = sequences x 8 key /
    value heads): the counts it picks were within 15% of the fastest there for full, random and one-long cache lengths
    (docs/perf-log.md, session 36); no split past VARLEN_SPLIT_MAX_Q queries, on short keys, or where the grid is
    large. Head dims up to 64 take twice the parts."""
    monkeypatch.setattr(variants, "VARLEN_SPLIT_FORCE", None)

    def rule(p, k, d, **kw):
        return variants.varlen_splits(p, k, 132, head_dim=d, **kw)
    shapes = ((8, 32768), (32, 16384), (64, 4096), (64, 16384), (128, 8192), (256, 4096), (512, 2048), (1024, 1024),
              (192, 3000))
    assert [rule(p, k, 64) for p, k in shapes] == [16, 16, 8, 16, 8, 4, 2, 1, 4]
    assert [rule(p, k, 128) for p, k in shapes] == [16, 16, 8, 8, 4, 2, 1, 1, 2]
    assert [rule(p, k, 256) for p, k in shapes] == [rule(p, k, 128) for p, k in shapes]
    assert rule(8, 9000, 128) == 16 and rule(8, 900, 128) == 1 and rule(8, 1024, 128) == 2
    assert rule(4096, 8015, 64) == 1 and rule(32, 8015, 128, max_seqlen_q=33) == 1


def test_combine_tiles_read_every_split_of_the_rule_in_one_round():
    """The API splits into at most VARLEN_SPLIT_MAX parts; the combine's tiles for a call of that many parts read them
    at once, those for VARLEN_COMBINE_FEW_PARTS parts or fewer read those at once, at every head dim, and both keep the
    [parts, rows, padded head dim] tile near 64 fp32 values a thread (no spills offline); the call's split count picks
    the form."""
    for d in variants.HEAD_DIMS:
        padded = 1 << (d - 1).bit_length()
        for parts in range(2, variants.VARLEN_SPLIT_MAX + 1):
            v = variants.varlen_combine_variant(torch.bfloat16, d, group=d in variants.VARLEN_GROUP_HEAD_DIMS,
                                                splits=parts)
            c = v.config
            assert c.block_n >= parts and c.block_n & (c.block_n - 1) == 0, (v.name, parts)
            assert c.block_n * c.block_m * padded // (32 * c.num_warps) <= 64, v.name
            assert (c.block_n == variants.VARLEN_COMBINE_FEW_PARTS) == (parts <= variants.VARLEN_COMBINE_FEW_PARTS)
    interp_cfg = variants.varlen_combine_variant(torch.float16, 64, interpreter=True).config
    assert interp_cfg.block_n < 3 <= variants.VARLEN_SPLIT_MAX  # the tests' 3-part splits run the group loop


@interp
def test_split_max_seqlen_q_too_small(split):
    gen = torch.Generator().manual_seed(24)
    q, k, v, cu_q, cu_k = packed([40, 8], [40, 8], 2, 2, 32, torch.float16, "cpu", gen)
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 16, 40, causal=True, return_lse=True)
    assert not out[:16].isnan().any() and not out[40:].isnan().any()
    assert out[16:40].isnan().all() and lse[:, 16:40].isnan().all()


@interp
def test_grouped_heads_max_seqlen_q_too_small(grouped):
    gen = torch.Generator().manual_seed(22)
    q, k, v, cu_q, cu_k = packed([40, 8], [40, 8], 4, 2, 32, torch.float16, "cpu", gen)
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 8, 40, return_lse=True)
    n = 8 if grouped else 16  # one 16-row tile: 8 positions x 2 heads, or 16 positions
    assert not out[:n].isnan().any() and not out[40:].isnan().any()
    assert out[n:40].isnan().all() and lse[:, n:40].isnan().all()
    ref, _ = attention_ref(q[None, :40], k[None, :40], v[None, :40], 1 / math.sqrt(32))
    assert rel_err(out[None, :n], ref[:, :n]) < TOL[torch.float16]


@interp
@pytest.mark.parametrize("d", variants.HEAD_DIMS)
def test_every_head_dim(d):
    run_case([7, 20], [11, 20], 2, 1, d, True, torch.float16, seed=d)


@interp
@pytest.mark.parametrize("h,hk", [(4, 1), (6, 3)])
def test_gqa_and_padding_rows(h, hk):
    # rows past the last offset (a padded batch, as inference servers allocate) stay unwritten
    run_case([13, 30], [13, 30], h, hk, 32, False, torch.float16, pad_q=5, pad_k=3)


@interp
def test_strided_packed_qkv_and_scale():
    """q, k, v as views of one packed (total, 3, H, D) tensor, and a softmax scale of the caller's."""
    gen = torch.Generator().manual_seed(3)
    lens = [21, 6, 37]
    qkv = (torch.randn(sum(lens), 3, 2, 32, generator=gen) * 3).to(torch.float16)
    q, k, v = qkv.unbind(1)
    cu = offsets(lens, "cpu")
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 37, 37, 0.0, 0.3, True, return_lse=True)
    check_sequences(out, lse, q, k, v, cu, cu, 0.3, True, TOL[torch.float16])
    out2 = dhpfa.flash_attn_varlen_func(q.contiguous(), k.contiguous(), v.contiguous(), cu, cu, 37, 37,
                                        softmax_scale=0.3, causal=True)
    assert torch.equal(out, out2)


@interp
@pytest.mark.parametrize("causal", [False, True])
def test_max_seqlen_q_too_small_gives_nan_not_stale_rows(causal):
    gen = torch.Generator().manual_seed(4)
    q, k, v, cu_q, cu_k = packed([40, 8], [40, 8], 2, 2, 32, torch.float16, "cpu", gen)
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 16, 40, causal=causal, return_lse=True)  # one tile
    assert not out[:16].isnan().any() and not out[40:].isnan().any()
    assert out[16:40].isnan().all() and lse[:, 16:40].isnan().all()
    ref, _ = attention_ref(q[None, :40], k[None, :40], v[None, :40], 1 / math.sqrt(32), 0 if causal else None)
    assert rel_err(out[None, :16], ref[:, :16]) < TOL[torch.float16]
    check_sequences(out[40:], lse[:, 40:], q[40:], k[40:], v[40:], cu_q[1:] - 40, cu_k[1:] - 40, 1 / math.sqrt(32),
                    causal, TOL[torch.float16])


@interp
def test_varlen_packed_layouts_match_separate_tensors():
    """flash-attn's packed varlen layouts: qkv (total, 3, H, D) and kv (total_k, 2, H_kv, D) give the bits of the same
    call on the unpacked views; a wrong stacking dimension is refused with the expected layout."""
    gen = torch.Generator().manual_seed(40)
    lens = [9, 30, 4]
    cu = offsets(lens, "cpu")
    qkv = torch.randn(sum(lens), 3, 2, 32, generator=gen).half()
    ref, lse = dhpfa.flash_attn_varlen_func(*qkv.unbind(1), cu, cu, 30, 30, causal=True, return_lse=True)
    out, lse2 = dhpfa.flash_attn_varlen_qkvpacked_func(qkv, cu, 30, causal=True, return_lse=True)
    assert torch.equal(out, ref) and torch.equal(lse2, lse)
    q = torch.randn(sum(lens), 4, 32, generator=gen).half()
    kv = torch.randn(sum(lens), 2, 2, 32, generator=gen).half()
    assert torch.equal(dhpfa.flash_attn_varlen_kvpacked_func(q, kv, cu, cu, 30, 30, softmax_scale=0.3),
                       dhpfa.flash_attn_varlen_func(q, *kv.unbind(1), cu, cu, 30, 30, softmax_scale=0.3))
    with pytest.raises(ValueError, match=r"^kv: expected a 4-D tensor \(total_seqlen, 2, heads, head_dim\)"):
        dhpfa.flash_attn_varlen_kvpacked_func(q, qkv, cu, cu, 30, 30)


@interp
def test_return_attn_probs_and_defaults():
    gen = torch.Generator().manual_seed(5)
    q, k, v, cu_q, cu_k = packed([4, 9], [4, 9], 2, 2, 32, torch.float16, "cpu", gen)
    out, lse, probs = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 9, 9, return_attn_probs=True)
    assert probs is None and lse.shape == (2, 13)
    assert torch.equal(out, dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 9, 9, window_size=(-1, -1),
                                                         deterministic=True))


def _dense_plans():
    return [p for p in api._PLANS.values() if isinstance(p, api._VarlenPlan) and p.dense is not None]


@pytest.fixture
def dense_calls(monkeypatch):
    """A list that gains an entry at every api.flash_attn_func call (the dense route), which still runs."""
    calls = []
    flash = api.flash_attn_func
    monkeypatch.setattr(api, "flash_attn_func", lambda *a, **kw: calls.append(1) or flash(*a, **kw))
    return calls


@pytest.fixture
def dense_from_33(monkeypatch):
    """The equal-length dense path from 33 queries per sequence at every head dim (interpreter-sized cases)."""
    monkeypatch.setattr(variants, "VARLEN_DENSE_MIN_Q", 33)
    monkeypatch.setattr(variants, "VARLEN_DENSE_MIN_Q_SMALL_D", 33)
    monkeypatch.setattr(api, "_PLANS", {})


@interp
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("sq,sk,h,hk,d", [(40, 40, 2, 2, 32), (33, 50, 4, 2, 64), (45, 36, 2, 1, 32)])
def test_equal_lengths_run_dense(monkeypatch, dense_from_33, sq, sk, h, hk, d, causal):
    """B sequences of max_seqlen_q queries and max_seqlen_k keys (variants.varlen_dense) run as one dense
    batch, then the guard: every sequence against float64 (seq_q != seq_k both ways, causal bottom-right, grouped
    heads), out with and without the lse; the dense plan is the one taken; the varlen kernel (the path off) agrees."""
    monkeypatch.setattr(api, "_PLANS", {})
    q, k, v, cu_q, cu_k, out, lse = run_case([sq] * 3, [sk] * 3, h, hk, d, causal, torch.float16, seed=sq + sk)
    assert len(_dense_plans()) == 1
    assert torch.equal(dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, sq, sk, causal=causal), out)
    monkeypatch.setattr(variants, "VARLEN_DENSE_MIN_Q", None)
    monkeypatch.setattr(api, "_PLANS", {})
    out2, lse2 = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, sq, sk, causal=causal, return_lse=True)
    assert not _dense_plans() and rel_err(out2, out) < TOL[torch.float16]
    finite = torch.isfinite(lse)
    assert torch.equal(finite, torch.isfinite(lse2)) and torch.allclose(lse[finite], lse2[finite], atol=1e-3)


def test_dense_rule_thresholds(monkeypatch):
    """variants.varlen_dense: session 21's thresholds (96 queries above D=64, never at D <= 64); None turns it off."""
    rule = variants.varlen_dense
    assert not rule(128, 95) and rule(128, 96) and rule(96, 96) and rule(256, 4096)
    assert not rule(64, 4096) and not rule(32, 4096)
    monkeypatch.setattr(variants, "VARLEN_DENSE_MIN_Q", None)
    assert not rule(128, 4096) and not rule(64, 4096)


@interp
def test_equal_lengths_strided_qkv(dense_from_33):
    """Rows of a packed (total, 3, H, D) tensor (row stride 3 H D) on the dense path."""
    gen = torch.Generator().manual_seed(41)
    qkv = torch.randn(2 * 36, 3, 2, 32, generator=gen).half()
    q, k, v = qkv.unbind(1)
    cu = offsets([36, 36], "cpu")
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 36, 36, causal=True, return_lse=True)
    assert len(_dense_plans()) == 1
    check_sequences(out, lse, q, k, v, cu, cu, 1 / math.sqrt(32), True, TOL[torch.float16])


@interp
@pytest.mark.parametrize("lens_q,lens_k,bad", [
    ([40, 30, 50], [40, 40, 40], [1, 2]),   # total_q = 3 x 40 but sequence 2 is longer than max_seqlen_q
    ([40, 40, 40], [40, 40, 40], []),
    ([40, 40, 40], [30, 40, 50], [0, 1, 2]),  # a key sequence longer than max_seqlen_k
    ([40, 40, 40], [40, 45, 35], [1, 2]),
])
def test_equal_length_guard_nans_blocks_whose_offsets_disagree(dense_from_33, lens_q, lens_k, bad):
    """total_q = B x max_seqlen_q (and total_k = B x max_seqlen_k) with offsets that are not the dense batch's (some
    sequence past its max_seqlen: the caller's error): the blocks whose offsets disagree are NaN in out and lse, the
    others are their sequences' attention."""
    gen = torch.Generator().manual_seed(42)
    q, k, v, cu_q, cu_k = packed(lens_q, lens_k, 2, 2, 32, torch.float16, "cpu", gen)
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 40, 40, return_lse=True)
    assert len(_dense_plans()) == 1
    for b in range(3):
        rows = slice(40 * b, 40 * (b + 1))
        if b in bad:
            assert out[rows].isnan().all() and lse[:, rows].isnan().all(), f"block {b}"
        else:
            ref, ref_lse = attention_ref(q[None, rows], k[None, rows], v[None, rows], 1 / math.sqrt(32))
            assert rel_err(out[None, rows], ref) < TOL[torch.float16], f"block {b}"
            assert torch.allclose(lse[:, rows].double(), ref_lse[0], atol=1e-3)


def paged_cache(lens_k, hk, d, page, gen, spare=3):
    """A paged cache holding sequences of lens_k keys: (num_blocks, page, hk, d) k and v with the pages of the
    sequences in a random order (and a few unused pages), the block table (B, max_blocks) int32 (unused entries -1 or
    a page past the cache: clamped by the kernel, never read for a key), and each sequence's keys gathered in order."""
    blocks = [-(-n // page) for n in lens_k]
    width = max(max(blocks), 1)
    nb = sum(blocks) + spare
    kc = torch.randn(nb, page, hk, d, generator=gen).half()
    vc = torch.randn(nb, page, hk, d, generator=gen).half()
    order = torch.randperm(nb, generator=gen).tolist()
    bt = torch.full((len(lens_k), width), 10 ** 6, dtype=torch.int32)
    keys, vals = [], []
    for b, n in enumerate(lens_k):
        own = [order.pop() for _ in range(blocks[b])]
        bt[b, :len(own)] = torch.tensor(own, dtype=torch.int32)
        if len(own) < width:
            bt[b, len(own)] = -1
        rows = [(own[j // page], j % page) for j in range(n)]
        keys.append(torch.stack([kc[p_, r] for p_, r in rows]) if n else kc[:0, 0])
        vals.append(torch.stack([vc[p_, r] for p_, r in rows]) if n else vc[:0, 0])
    return kc, vc, bt, keys, vals


def run_paged(lens_q, lens_k, h, page, causal, seed):
    """A paged-cache varlen call (2 key/value heads, D=32, fp16, max_seqlen_q 3, max_seqlen_k 40; paged_cache's pages
    of `page` rows) against float64 on each sequence's keys gathered in order."""
    gen = torch.Generator().manual_seed(seed)
    kc, vc, bt, keys, vals = paged_cache(lens_k, 2, 32, page, gen)
    q = (torch.randn(sum(lens_q), h, 32, generator=gen) * 2).half()
    cu_q, cu_k = offsets(lens_q, "cpu"), offsets(lens_k, "cpu")
    out, lse = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, 3, 40, causal=causal, block_table=bt,
                                            return_lse=True)
    check_sequences(out, lse, q, torch.cat(keys), torch.cat(vals), cu_q, cu_k, 1 / math.sqrt(32), causal,
                    TOL[torch.float16])


def _paged_forms():
    """The paged plans made so far, by form: {"blocks": n, "keys": n} (variants.varlen_page_blocks chose)."""
    names = [p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan) and p.variant is not None
             and "_paged" in p.variant.kernel]
    return {"blocks": sum(n.endswith("_blocks") for n in names), "keys": sum(not n.endswith("_blocks") for n in names)}


@interp
@pytest.mark.parametrize("page,causal", [(8, False), (5, True), (16, True), (32, False)])
def test_paged_cache_against_float64(split, grouped, page, causal):
    """block_table (flash-attn's paged KV): k and v are pages in any order, sequence b's key j in page
    block_table[b, j // page] at row j % page; decode steps, a few queries, a sequence without keys, lengths that end
    inside a page, page sizes 8 and 5 (a page index per key) and 16 and 32 (pages holding whole 16-key blocks of the
    interpreter's tiles: a page index per block, two blocks a page at 32); grouped heads and splits across programs or
    not; against float64 on the keys gathered in order."""
    run_paged([1, 3, 2, 1], [19, 7, 0, 40], 8, page, causal, 50 + page)
    per_block = page % variants.VARLEN_INTERPRETER.block_n == 0
    assert _paged_forms() == {"blocks": int(per_block), "keys": int(not per_block)}


@interp
@pytest.mark.parametrize("d", [32, 256])
def test_paged_forms_agree_bitwise(monkeypatch, d):
    """Pages of 32 keys on both paged builds (per block, and per key with variants.VARLEN_PAGE_BLOCKS off): the same
    keys in the same order, so the same bits, split or not; and float64. Head dims 32 (the per-block form's scalar page,
    BLOCK_D <= 128) and 256 (its page index in each tile's layout)."""
    gen = torch.Generator().manual_seed(53)
    lens_q, lens_k = [2, 1, 5], [70, 33, 12]
    kc, vc, bt, keys, vals = paged_cache(lens_k, 2, d, 32, gen)
    q = torch.randn(sum(lens_q), 4, d, generator=gen).half()
    cu_q, cu_k = offsets(lens_q, "cpu"), offsets(lens_k, "cpu")
    for force in (None, 2):
        monkeypatch.setattr(variants, "VARLEN_SPLIT_FORCE", force)
        outs = []
        for blocks in (True, False):
            monkeypatch.setattr(variants, "VARLEN_PAGE_BLOCKS", blocks)
            monkeypatch.setattr(api, "_PLANS", {})
            outs.append(dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, 5, 70, causal=True, block_table=bt,
                                                     return_lse=True))
            assert _paged_forms() == {"blocks": int(blocks), "keys": int(not blocks)}
        assert torch.equal(outs[0][0], outs[1][0]) and torch.equal(outs[0][1], outs[1][1]), force
        check_sequences(*outs[0], q, torch.cat(keys), torch.cat(vals), cu_q, cu_k, d ** -0.5, True, TOL[torch.float16])


def test_per_block_paged_build_refuses_other_page_sizes():
    """The per-block paged builds read one page index per key block: the dispatcher refuses a page size that is not a
    multiple of the build's key block (the host's choice, variants.varlen_page_blocks, never sends one)."""
    from dhpfa.kernels import dispatch
    v_ = variants.varlen_variant(torch.float16, 128, True, paged=True, page_blocks=True)
    q, k = torch.empty(3, 4, 128, dtype=torch.float16), torch.empty(96, 2, 128, dtype=torch.float16)
    cu = torch.zeros(2, dtype=torch.int32)
    args = (v_, q, k, k, q, torch.empty(4, 3), cu, cu, 3, 0.1)
    bt = torch.zeros(1, 3, dtype=torch.int32)
    with pytest.raises(ValueError, match=r"page size 32 is not a multiple of the key block \(64\)"):
        dispatch.varlen_launch_args(*args, paged=(bt, 32, 3))
    dispatch.varlen_launch_args(*args, paged=(bt, 64, 1))  # a whole block per page: accepted
    assert not variants.varlen_page_blocks(128, 32) and variants.varlen_page_blocks(128, 64)
    assert variants.varlen_page_blocks(256, 32) and not variants.varlen_page_blocks(256, 16)


def test_hopper_paged_build_refuses_what_it_cannot_take():
    """The Hopper paged build (attn_fwd_sm90_varlen_paged) reads one page per key block: its launch refuses pages that
    are not a multiple of the build's key block, pages past k's rows, and a paged cache on the other Hopper builds (or
    none on it); the API never sends one (variants.varlen_sm90_pages)."""
    from dhpfa.kernels import dispatch
    hp = variants.varlen_sm90_variant(torch.bfloat16, 128, True, paged=True)
    q, k = torch.empty(300, 4, 128, dtype=torch.bfloat16), torch.empty(512, 2, 128, dtype=torch.bfloat16)
    out = torch.empty(364, 4, 128, dtype=torch.bfloat16)[64:]
    cu = torch.zeros(3, dtype=torch.int32)
    args = (q, k, k, out, torch.empty(4, 300), cu, cu, 150, 0.1)
    bt = torch.zeros(2, 3, dtype=torch.int32)
    with pytest.raises(ValueError, match=r"pages of a multiple of 128 rows within k's 512"):
        dispatch.varlen_launch_args(hp, *args, paged=(bt, 64, 8))
    with pytest.raises(ValueError, match=r"pages of a multiple of 128 rows within k's 512"):
        dispatch.varlen_launch_args(hp, *args, paged=(bt, 256, 4))
    with pytest.raises(ValueError, match="a paged cache exactly with the paged build"):
        dispatch.varlen_launch_args(hp, *args)
    with pytest.raises(ValueError, match="a paged cache exactly with the paged build"):
        dispatch.varlen_launch_args(variants.varlen_sm90_variant(torch.bfloat16, 128, True), *args, paged=(bt, 256, 2))
    _, _, kwargs = dispatch.varlen_launch_args(hp, *args, paged=(bt, 256, 2))
    assert (kwargs["PAGE"], kwargs["NUM_PAGES"], kwargs["BT_COLS"], kwargs["stride_bt"]) == (256, 2, 3, 3)
    assert variants.varlen_sm90_variant(torch.bfloat16, 128, False, local=True, softcap=True, paged=True).kernel \
        == "attn_fwd_sm90_varlen_local_softcap_paged"  # (session 33: windows and soft-caps on the paged builds too)
    assert variants.varlen_sm90_pages(128, 256) and not variants.varlen_sm90_pages(128, 64)
    assert variants.varlen_sm90_pages(256, 64) and not variants.varlen_sm90_pages(64, 256)


@interp
@pytest.mark.parametrize("page", [8, 16])
def test_paged_cache_bad_page_indices_are_clamped(page):
    """Page indices past the cache or negative (a caller's error) are clamped: the call reads only the cache, and the
    sequences with valid tables are unaffected; in both page forms (8: per key, 16: per block)."""
    gen = torch.Generator().manual_seed(52)
    kc, vc, bt, keys, vals = paged_cache([2 * page, 2 * page], 2, 32, page, gen)
    good = bt.clone()
    bt[1, 0], bt[1, 1] = 10 ** 6, -5
    q = torch.randn(2, 2, 32, generator=gen).half()
    cu_q, cu_k = offsets([1, 1], "cpu"), offsets([2 * page, 2 * page], "cpu")
    out = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, 1, 2 * page, block_table=bt)
    ref = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, 1, 2 * page, block_table=good)
    assert torch.equal(out[0], ref[0]) and torch.isfinite(out).all()
    assert _paged_forms()["blocks" if page == 16 else "keys"] > 0


def _args(**over):
    gen = torch.Generator().manual_seed(6)
    q, k, v, cu_q, cu_k = packed([4, 9], [4, 9], 2, 2, 32, torch.float16, "cpu", gen)
    a = dict(q=q, k=k, v=v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, max_seqlen_q=9, max_seqlen_k=9)
    a.update(over)
    return a


@interp
@pytest.mark.parametrize("over,exc,match", [
    (dict(cu_seqlens_q=torch.tensor([0, 4, 13])), TypeError,
     r"^cu_seqlens_q: expected dtype torch.int32, got torch.int64"),
    (dict(cu_seqlens_k=torch.tensor([[0, 4, 13]], dtype=torch.int32)), ValueError, r"^cu_seqlens_k: expected a 1-D"),
    (dict(cu_seqlens_k=torch.tensor([0], dtype=torch.int32)), ValueError, r"^cu_seqlens_k: expected a 1-D tensor of "),
    (dict(cu_seqlens_k=torch.tensor([0, 13], dtype=torch.int32)), ValueError, r"^cu_seqlens_k: expected 3 offsets"),
    (dict(cu_seqlens_q=torch.tensor([0, 0, 4, 0, 13], dtype=torch.int32)[::2]), ValueError,
     r"^cu_seqlens_q: expected a contiguous tensor"),
    (dict(cu_seqlens_q=[0, 4, 13]), TypeError, r"^cu_seqlens_q: expected a torch.Tensor"),
    (dict(max_seqlen_q=9.0), TypeError, r"^max_seqlen_q: expected an int, got float"),
    (dict(max_seqlen_k=0), ValueError, r"^max_seqlen_k: expected an int >= 1"),
    (dict(q=torch.randn(1, 13, 2, 32).half()), ValueError,
     r"^q: expected a 3-D tensor \(total_seqlen, heads, head_dim\)"),
    (dict(k=torch.randn(13, 3, 32).half(), v=torch.randn(13, 3, 32).half()), ValueError,
     r"^k: number of key/value heads \(3\) must divide"),
    (dict(v=torch.randn(13, 2, 64).half()), ValueError, r"^k, v: expected head_dim 32"),
    (dict(block_table=torch.zeros(2, 1, dtype=torch.int32)), ValueError,
     r"^k: expected a 4-D tensor \(num_blocks, page_block_size, heads_kv, head_dim\)"),
    (dict(dropout_p=0.1), NotImplementedError, r"^dropout_p: dropout is not supported"),
    (dict(softcap=-1.0), ValueError, r"^softcap: expected a finite number >= 0 \(0: off\), got -1.0"),
    (dict(softcap="30"), TypeError, r"^softcap: expected a float, got str"),
    (dict(window_size=(1.5, 0)), TypeError, r"^window_size: expected a pair of ints \(left, right\), got \(1.5, 0\)"),
    (dict(window_size=None), TypeError, r"^window_size: expected a pair of ints"),
    (dict(alibi_slopes=torch.zeros(2)), NotImplementedError, r"^alibi_slopes: ALiBi"),
    (dict(causal=1), TypeError, r"^causal: expected a bool"),
])
def test_bad_arguments(over, exc, match):
    with pytest.raises(exc, match=match):
        dhpfa.flash_attn_varlen_func(**_args(**over))


@interp
def test_cu_seqlens_on_another_device():
    with pytest.raises(ValueError, match=r"^cu_seqlens_q: expected device cpu \(that of q\), got meta"):
        dhpfa.flash_attn_varlen_func(**_args(cu_seqlens_q=torch.zeros(3, dtype=torch.int32, device="meta")))


@interp
def test_repeated_calls_reuse_the_plan_and_recheck_alignment(monkeypatch):
    """A second call with the same public metadata skips the checks (one plan), gives the same bits, and a
    misaligned offsets tensor (the kernels are specialised on 16-byte aligned pointers) still gets its error."""
    made = []
    new_plan = api._new_varlen_plan
    monkeypatch.setattr(api, "_new_varlen_plan", lambda *a, **kw: made.append(1) or new_plan(*a, **kw))
    monkeypatch.setattr(api, "_PLANS", {})
    a = _args()
    first = dhpfa.flash_attn_varlen_func(**a)
    assert torch.equal(first, dhpfa.flash_attn_varlen_func(**a)) and len(made) == 1
    spare = torch.zeros(8, dtype=torch.int32)
    spare[1:4] = a["cu_seqlens_q"]
    with pytest.raises(ValueError, match=r"^cu_seqlens_q: data pointer must be 16-byte aligned, got offset 4"):
        dhpfa.flash_attn_varlen_func(**dict(a, cu_seqlens_q=spare[1:4]))
    a["max_seqlen_q"] = 13  # other public metadata: a new plan, the same result
    assert torch.equal(first, dhpfa.flash_attn_varlen_func(**a)) and len(made) == 3


@interp
def test_tensor_past_32_bit_offsets_is_refused(monkeypatch):
    """The portable kernel indexes within a tensor in 32 bits: a tensor past that (the limit lowered here, so that a
    small strided k passes it) is refused by name (the Hopper kernel takes such calls: test_gpu_sm90_varlen_wide)."""
    monkeypatch.setattr(api, "OFFSET_LIMIT", 1024)
    gen = torch.Generator().manual_seed(6)
    k = torch.randn(13, 2, 64, generator=gen).half()[:, :, :32]  # strides (128, 64, 1): spans 1,632 elements
    with pytest.raises(ValueError, match=r"^k: spans 1632 elements; the varlen kernel indexes"):
        dhpfa.flash_attn_varlen_func(**_args(k=k))


# ---- GPU -----------------------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("d", variants.HEAD_DIMS)
@pytest.mark.parametrize("causal", [False, True])
def test_gpu_sequences_against_float64(d, causal, dtype):
    """Mixed lengths (one row to past a thousand, a sequence with no keys, padding rows) with GQA, then 20 more calls
    bitwise equal to the first."""
    lens_q, lens_k = [1, 77, 1100, 513, 0, 64], [300, 77, 1100, 600, 5, 0]
    q, k, v, cu_q, cu_k, out, lse = run_case(lens_q, lens_k, 8, 2, d, causal, dtype, "cuda", seed=d, pad_q=7)
    for _ in range(20):
        o2, l2 = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 1100, 1100, causal=causal, return_lse=True)
        assert torch.equal(o2[:cu_q[-1]], out[:cu_q[-1]]) and torch.equal(l2[:, :cu_q[-1]], lse[:, :cu_q[-1]])


@pytest.mark.gpu
@pytest.mark.parametrize("portable", [False, True])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("softcap,window,causal", [(0.0, (256, 0), True), (0.0, (100, 100), False),
                                                    (30.0, (-1, -1), True), (10.0, (300, 7), False)])
def test_gpu_windows_and_softcap_against_float64(softcap, window, causal, d, dtype, portable, monkeypatch):
    """Local windows and soft-capping on the GPU binaries (64-row tiles: windows narrower and wider than a tile),
    mixed lengths, spread-out scores where the cap matters; then repeated calls bitwise equal. portable: the Hopper
    varlen builds off (variants.VARLEN_SM90_MIN_Q None), so every head dim runs the portable kernel (its soft-cap by
    MUFU.TANH since session 34)."""
    monkeypatch.setattr(api, "_PLANS", {})
    if portable:
        monkeypatch.setattr(variants, "VARLEN_SM90_MIN_Q", None)
    lens_q, lens_k = [1, 300, 1100, 77], [40, 300, 1100, 500]
    q, k, v, cu_q, cu_k, out, lse = run_case(lens_q, lens_k, 4, 2, d, causal, dtype, "cuda", seed=d, window=window,
                                             softcap=softcap, spread=3.0)
    for _ in range(5):
        o2 = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 1100, 1100, causal=causal, window_size=window,
                                          softcap=softcap)
        assert torch.equal(o2, out)
    if portable:
        assert _plan_kernels() and all(n in variants.VARLEN_KERNELS.values() for n in _plan_kernels())


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("lens_q,opts", [([1] * 6, {}), ([4] * 6, dict(window=(500, 0))), ([1] * 6, dict(softcap=20.0)),
                                         ([1, 70, 300, 1, 2, 9], {})])
def test_gpu_grouped_heads(split, grouped, lens_q, opts, d, dtype):
    """Decode steps and few-query calls with 4 query heads per key/value head, grouped as rows of one tile and not,
    split across programs by the API's rule (4 parts here) or in 3 parts, against float64; repeats bitwise equal."""
    lens_k = [900, 1, 3000, 64, 2, 700]
    q, k, v, cu_q, cu_k, out, lse = run_case(lens_q, lens_k, 16, 4, d, True, dtype, "cuda", seed=d, spread=2.0, **opts)
    o2 = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, max(lens_q), 3000, causal=True,
                                      window_size=opts.get("window", (-1, -1)), softcap=opts.get("softcap", 0.0))
    assert torch.equal(o2, out)


@pytest.mark.gpu
@pytest.mark.parametrize("num_splits", [1, 3, 16])
def test_gpu_kvcache_num_splits(num_splits, monkeypatch):
    """flash_attn_with_kvcache's num_splits on the GPU (session 36; not yet run there when written): the plan takes the
    caller's count, against float64, and a repeated call (the kept plan) gives the same bits."""
    monkeypatch.setattr(api, "_PLANS", {})
    gen = torch.Generator().manual_seed(36 + num_splits)
    kc, vc = (torch.randn(4, 3000, 2, 128, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
    q = (torch.randn(4, 1, 8, 128, generator=gen) * 2).to("cuda", torch.bfloat16)
    lens = torch.tensor([3000, 1, 1700, 64], dtype=torch.int32, device="cuda")
    out = dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=True, num_splits=num_splits)
    assert [p.splits for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)] == [num_splits]
    for b in range(4):
        n = int(lens[b])
        ref, _ = attention_ref(q[b:b + 1], kc[b:b + 1, :n], vc[b:b + 1, :n], 128 ** -0.5, n - 1)
        assert rel_err(out[b:b + 1], ref) < TOL[torch.bfloat16]
    assert torch.equal(dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=True,
                                                     num_splits=num_splits), out)


def test_grouped_few_row_tiles_rule():
    """variants.varlen_few_rows / VARLEN_GROUP_FEW (session 37): 16-row tiles for grouped calls at D=192 / 256 whose
    sequences bring at most 16 rows, without a window or soft-cap, not in the interpreter; their variants are audited,
    and their paged form's rule follows their own key block."""
    few = variants.varlen_few_rows
    assert few(256, 16) and few(192, 1) and not few(256, 17) and not few(128, 4) and not few(64, 1)
    assert not few(256, 4, local=True) and not few(256, 4, softcap=True) and not few(256, 4, interpreter=True)
    v = variants.varlen_variant(torch.bfloat16, 256, False, split=True, group=True, few=True)
    assert v.config == variants.VARLEN_GROUP_FEW[256] and v.config.block_m == variants.VARLEN_GROUP_FEW_ROWS
    assert v.config != variants.varlen_variant(torch.bfloat16, 256, False, split=True, group=True).config
    assert v in variants.varlen_variants()
    for opts in (dict(group=False), dict(group=True, local=True), dict(group=True, softcap=True)):
        with pytest.raises(ValueError, match="few"):
            variants.varlen_variant(torch.bfloat16, 256, False, few=True, **opts)
    block = variants.VARLEN_GROUP_FEW[256].block_n
    assert variants.varlen_page_blocks(256, block, group=True, few=True)
    assert not variants.varlen_page_blocks(256, block // 2, group=True, few=True)


@pytest.mark.gpu
@pytest.mark.parametrize("d", [192, 256])
@pytest.mark.parametrize("sq,hk,paged,num_splits", [(1, 8, 0, 0), (4, 4, 0, 0), (2, 2, 64, 0), (4, 4, 16, 3),
                                                    (1, 2, 0, 3), (16, 8, 0, 0), (1, 1, 0, 0), (1, 16, 0, 0)])
def test_gpu_grouped_few_row_tiles(d, sq, hk, paged, num_splits, monkeypatch):
    """Decode steps and drafts through flash_attn_with_kvcache (tensor cache_seqlens) at D=192 / 256: the plan runs the
    16-row grouped tiles where every sequence's rows (queries x the group of 16 // hk heads) fit 16, the 64-row ones
    past that (16 queries x 2 heads) and one head a tile without groups (hk = 16); paged (pages of 64: the per-block
    form; of 16: the per-key form) or not, split by the rule or in 3 parts; against float64."""
    monkeypatch.setattr(api, "_PLANS", {})
    gen = torch.Generator().manual_seed(d + sq + hk)
    b, h, sc = 3, 16, 2048
    kc, vc = (torch.randn(b, sc, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
    q = (torch.randn(b, sq, h, d, generator=gen) * 2).to("cuda", torch.bfloat16)
    lens = torch.tensor([2048, 5, 1500], dtype=torch.int32, device="cuda")
    kw = {}
    if paged:  # the same keys in pages, the pages of each sequence shuffled
        page = paged
        perm = torch.randperm(b * sc // page, generator=gen)
        kp, vp = (t.reshape(b * sc // page, page, hk, d)[torch.argsort(perm).to("cuda")] for t in (kc, vc))
        kw = dict(block_table=perm.reshape(b, sc // page).to("cuda", torch.int32))
        kcall, vcall = kp, vp
    else:
        kcall, vcall = kc, vc
    out = dhpfa.flash_attn_with_kvcache(q, kcall, vcall, cache_seqlens=lens, causal=True, num_splits=num_splits, **kw)
    plans = [p for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)]
    group = h // hk
    assert len(plans) == 1 and plans[0].group == group
    want_few = group > 1 and sq * group <= variants.VARLEN_GROUP_FEW_ROWS
    assert (plans[0].variant.config.block_m == 16) == want_few, plans[0].variant.name
    if paged:  # the page form follows the build's own key block
        assert plans[0].variant.kernel.endswith("_blocks") == (paged % plans[0].variant.config.block_n == 0)
    for i in range(b):
        n = int(lens[i])
        ref, _ = attention_ref(q[i:i + 1], kc[i:i + 1, :n], vc[i:i + 1, :n], d ** -0.5, n - sq)
        assert rel_err(out[i:i + 1], ref) < TOL[torch.bfloat16], i


@pytest.mark.gpu
@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("parts", [2, 5, 16, 17, 40])
def test_gpu_combine_over_any_part_count(parts, d, monkeypatch):
    """attn_varlen_combine reads up to its tiles' 16 parts in one round and rescales group by group past them (session
    36): decode steps of grouped heads split into 2-40 parts (parts without a visible key among them: 40 parts of
    sequences of 1 and 64 keys), against float64, and against the part-by-part form (PARTS = 1 on 64-row tiles, the
    combine's loop before session 36), which sums the same parts in another order."""
    monkeypatch.setattr(variants, "VARLEN_SPLIT_FORCE", parts)
    monkeypatch.setattr(api, "_PLANS", {})
    lens_k = [4000, 1, 2500, 64, 1500]
    q, k, v, cu_q, cu_k, out, lse = run_case([1] * 5, lens_k, 16, 4, d, True, torch.bfloat16, "cuda", seed=parts + d,
                                             spread=2.0)
    assert {p.splits for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)} == {parts}
    one_part = {dd: variants.TileConfig(64, 1, 4, 1) for dd in variants.VARLEN_COMBINE_TILES}
    monkeypatch.setattr(variants, "VARLEN_COMBINE_TILES", one_part)
    monkeypatch.setattr(variants, "VARLEN_COMBINE_TILES_FEW", one_part)
    monkeypatch.setattr(api, "_PLANS", {})
    o1, l1 = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 1, 4000, causal=True, return_lse=True)
    assert rel_err(o1, out.to("cpu", torch.float64)) < 1e-3
    assert torch.equal(torch.isfinite(l1), torch.isfinite(lse))
    assert torch.allclose(l1, lse, rtol=1e-5, atol=1e-5)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("d", [96, 128, 256])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("sq,sk", [(300, 300), (200, 700)])
def test_gpu_equal_lengths_dense_path(monkeypatch, sq, sk, causal, d, dtype):
    """Equal lengths on the dense kernels (the Hopper builds on sm_90) and the guard, against float64, grouped heads;
    repeats bitwise equal."""
    monkeypatch.setattr(api, "_PLANS", {})
    q, k, v, cu_q, cu_k, out, lse = run_case([sq] * 4, [sk] * 4, 8, 2, d, causal, dtype, "cuda", seed=d + sq)
    assert len(_dense_plans()) == 1
    for _ in range(5):
        o2, l2 = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, sq, sk, causal=causal, return_lse=True)
        assert torch.equal(o2, out) and torch.equal(l2, lse)


@pytest.mark.gpu
def test_gpu_equal_length_guard(monkeypatch):
    """The guard's compiled binary: blocks whose offsets are not the dense batch's become NaN, the others are right."""
    monkeypatch.setattr(api, "_PLANS", {})
    gen = torch.Generator().manual_seed(43)
    q, k, v, cu_q, cu_k = packed([100, 80, 120], [100] * 3, 4, 2, 128, torch.bfloat16, "cuda", gen)
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 100, 100, causal=True, return_lse=True)
    assert len(_dense_plans()) == 1
    assert out[100:].isnan().all() and lse[:, 100:].isnan().all() and not out[:100].isnan().any()
    ref, _ = attention_ref(q[None, :100], k[None, :100], v[None, :100], 1 / math.sqrt(128), 0)
    assert rel_err(out[None, :100], ref) < TOL[torch.bfloat16]


@pytest.mark.gpu
def test_gpu_dense_call_with_window_and_softcap():
    gen = torch.Generator().manual_seed(12)
    q, k, v = (torch.randn(2, 700, 8, 128, generator=gen).to("cuda", torch.bfloat16) for _ in range(3))
    out, lse = dhpfa.flash_attn_func(q * 3, k, v, causal=True, window_size=(200, 0), softcap=20.0, return_lse=True)
    ref, ref_lse = attention_ref(q * 3, k, v, 128 ** -0.5, 0, (200, 0), 20.0)
    assert rel_err(out, ref) < 1e-2 and torch.allclose(lse.double().cpu(), ref_lse, rtol=1e-3, atol=1e-3)


@pytest.mark.gpu
def test_gpu_varlen_equals_padded_dense_calls():
    """Each sequence of a packed call against flash_attn_func on that sequence alone (another kernel: within
    tolerance of each other), and the varlen binary is the audited one (launched == compiled offline)."""
    from dhpfa.audit import compile as C, variant_launch
    gen = torch.Generator().manual_seed(11)
    lens = [130, 1000, 7]
    q, k, v, cu, _ = packed(lens, lens, 16, 4, 128, torch.bfloat16, "cuda", gen)
    out = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 1000, 1000, causal=True)
    c = cu.tolist()
    for b in range(len(lens)):
        dense = dhpfa.flash_attn_func(q[None, c[b]:c[b + 1]], k[None, c[b]:c[b + 1]], v[None, c[b]:c[b + 1]],
                                      causal=True)
        assert rel_err(out[None, c[b]:c[b + 1]], dense.double().cpu()) < 1e-2
    v_ = variants.varlen_variant(torch.bfloat16, 128, True)
    grid, args, kwargs = __import__("dhpfa.kernels.dispatch", fromlist=["x"]).varlen_launch_args(
        v_, q, k, v, out, torch.empty(16, q.shape[0], device="cuda"), cu, cu, 1000, 0.1)
    launched = __import__("dhpfa.kernels.triton_fwd", fromlist=["x"]).attn_fwd_varlen[grid](*args, **kwargs)
    assert launched.asm["cubin"] == C.compile_offline(*variant_launch(v_)).cubin


# ---- the Hopper varlen kernel (sm90_fwd.attn_fwd_sm90_varlen; variants.varlen_sm90) ---------------------------------
def _plan_kernels():
    return [p.variant.kernel for p in api._PLANS.values() if isinstance(p, api._VarlenPlan) and p.variant is not None]


@pytest.fixture
def hopper_varlen(monkeypatch):
    """Every Hopper varlen build takes calls of any max_seqlen_q (the kernel's tests; the rule has its own), and no
    plan is kept from before."""
    monkeypatch.setattr(variants, "VARLEN_SM90_MIN_Q", {(d, c): 1 for d in variants.VARLEN_SM90 for c in (False, True)})
    monkeypatch.setattr(api, "_PLANS", {})


@pytest.mark.parametrize("d,max_q,opts,hopper", [
    (128, 512, {}, True), (128, 511, {}, False), (128, 1024, dict(causal=True), True),
    (128, 1023, dict(causal=True), False), (96, 600, {}, True), (96, 1000, dict(causal=True), False),
    (256, 128, {}, True), (192, 300, dict(causal=True), True), (256, 127, {}, False), (64, 4000, {}, False),
    (32, 4000, {}, False), (256, 600, dict(window=(100, 0)), True), (256, 600, dict(cap=20.0), True),
    (128, 600, dict(cap=20.0), True), (128, 1000, dict(cap=20.0, window=(100, 0), causal=True), False),
    (96, 1024, dict(cap=20.0, causal=True), True), (192, 128, dict(cap=20.0, causal=True), True),
    (128, 600, dict(window=(100, 0), causal=True), False), (128, 1024, dict(window=(100, 0), causal=True), True),
    (128, 2000, dict(odd_stride=True), False), (128, 600, dict(k_stride=2), True),
    (128, 600, dict(page=256), True), (128, 600, dict(page=128, k_stride=2), True), (128, 600, dict(page=64), False),
    (96, 600, dict(page=16), False), (128, 511, dict(page=256), True), (256, 200, dict(page=64, causal=True), True),
    (192, 200, dict(page=32), False), (64, 4000, dict(page=256), False),
    # session 33: a paged cache, or keys at least 4 x the queries (a chunk against a long cache), from 128 queries at
    # D=96 / 128 and 64 at D=192 / 256, soft-capped or not, without a local window
    (128, 128, dict(page=256, causal=True), True), (128, 127, dict(page=256), False), (256, 64, dict(page=64), True),
    (256, 63, dict(page=64), False), (128, 128, dict(max_k=512), True), (128, 128, dict(max_k=511), False),
    (128, 128, dict(max_k=4096, causal=True), True), (128, 127, dict(max_k=4096), False),
    (128, 128, dict(max_k=4096, cap=20.0), True), (128, 200, dict(max_k=4096, window=(100, 0), causal=True), False),
    (256, 64, dict(max_k=256, causal=True), True), (256, 64, dict(max_k=255), False), (96, 128, dict(max_k=4096), True),
    (96, 127, dict(max_k=4096), False), (192, 64, dict(max_k=4096), True), (192, 63, dict(max_k=4096), False),
    (192, 64, dict(max_k=4096, window=(1000, 0), causal=True), False), (128, 128, dict(max_k=4096, k_stride=2), True),
    # paged with a window or soft-cap (session 33): the Hopper paged builds under the same rule
    (128, 128, dict(page=256, cap=20.0), True), (128, 127, dict(page=256, cap=20.0), False),
    (128, 128, dict(page=256, window=(100, 0), causal=True), True),
    (128, 127, dict(page=256, window=(100, 0), causal=True), False), (256, 64, dict(page=64, window=(9, 9)), True),
    (256, 128, dict(page=32, window=(9, 9)), False), (96, 200, dict(page=128, window=(9, 9), cap=5.0), True),
    # session 34: unpaged windowed calls against long keys take the long-key rule where the window reaches at least
    # VARLEN_SM90_LONG_WINDOW (1,024) keys: left + right + 1, or a side unbounded
    (128, 128, dict(max_k=4096, window=(1023, 0), causal=True), True),
    (128, 128, dict(max_k=4096, window=(1022, 0), causal=True), False),
    (128, 512, dict(max_k=4096, window=(4095, 0), causal=True), True),
    (128, 512, dict(max_k=2047, window=(4095, 0), causal=True), False),
    (128, 127, dict(max_k=4096, window=(4095, 0), causal=True), False),
    (256, 64, dict(max_k=4096, window=(500, 523)), True), (256, 64, dict(max_k=4096, window=(500, 522)), False),
    (96, 128, dict(max_k=4096, window=(9, -1)), True), (192, 64, dict(max_k=4096, window=(-1, 9)), True),
    (128, 128, dict(max_k=4096, window=(1023, 0), causal=True, cap=30.0, k_stride=2), True)])
def test_hopper_varlen_rule(d, max_q, opts, hopper):
    """Which varlen calls run the Hopper kernel on sm_90 (api._hopper_varlen, variants.varlen_sm90): head dims 96-256
    from their least max_seqlen_q (D=96 / 128: 512, causal 1024; D=192 / 256: 128), with or without a window or
    soft-cap (session 31; a windowed call by its causal flag), with TMA-aligned row and head strides; the rest (D <= 64,
    short calls at D=96 / 128, strides TMA cannot take) stay on the portable kernel; key rows as (start, end) pairs
    (flash_attn_with_kvcache: k_stride 2) take it too, and so do paged caches whose pages hold whole key blocks of the
    build (session 32: pages of a multiple of 128 keys at D=96 / 128, of 64 at D=192 / 256); paged calls and calls
    whose max_seqlen_k is at least 4 x max_seqlen_q from fewer queries, but not with a local window (session 33) unless
    it reaches 1,024 keys or more (session 34). Public values only
    (CPU tensors)."""
    rows = 3000
    if opts.get("odd_stride"):  # rows of 4 heads x (d + 4) elements: a row stride TMA cannot take
        q = torch.empty(rows, 4, d + 4, dtype=torch.bfloat16)[:, :, :d]
    else:
        q = torch.empty(rows, 4, d, dtype=torch.bfloat16)
    k, v = torch.empty(rows, 2, d, dtype=torch.bfloat16), torch.empty(rows, 2, d, dtype=torch.bfloat16)
    window = opts.get("window", (-1, -1))
    paged = (torch.zeros(2, 3, dtype=torch.int32), opts["page"]) if "page" in opts else None
    assert api._hopper_varlen(q, k, v, d, max_q, opts.get("causal", False), window != (-1, -1), opts.get("cap", 0.0),
                              opts.get("k_stride", 1), paged, opts.get("max_k", max_q), window) == hopper


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("d", sorted(variants.VARLEN_SM90))
@pytest.mark.parametrize("causal", [False, True])
def test_gpu_sm90_varlen_against_float64(hopper_varlen, d, causal, dtype):
    """Mixed lengths on the Hopper kernel: tiles cut at every place (1, 63, 64, 65, 127, 129 rows), more keys than
    queries and fewer (causal: rows with no visible key), a sequence with no queries, one with no keys, GQA (4 query
    heads per key/value head), padding rows after the last sequence; against float64 per sequence. Then calls through
    the cached launcher bitwise equal to the first, and the launched binary is the audited one."""
    from dhpfa.audit import compile as C, variant_launch
    from dhpfa.kernels import dispatch
    lens_q, lens_k = [129, 1, 63, 300, 0, 64, 65, 127, 200], [129, 700, 10, 300, 5, 0, 1000, 127, 50]
    q, k, v, cu_q, cu_k, out, lse = run_case(lens_q, lens_k, 8, 2, d, causal, dtype, "cuda", seed=d + causal,
                                             pad_q=9, pad_k=3)
    assert _plan_kernels() == [variants.VARLEN_SM90_KERNEL]
    (plan,) = [p for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)]
    assert plan.launcher is not None  # later calls take the cached launcher (sliding descriptors rebuilt per base)
    for _ in range(5):
        o2, l2 = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
                                              return_lse=True)
        assert torch.equal(o2[:cu_q[-1]], out[:cu_q[-1]]) and torch.equal(l2[:, :cu_q[-1]], lse[:, :cu_q[-1]])
    var = variants.varlen_sm90_variant(dtype, d, causal)
    grid, args, kwargs = dispatch.varlen_launch_args(var, q, k, v, api._varlen_out(q, var.config.block_m // 2),
                                                     torch.empty_like(lse), cu_q, cu_k, max(lens_q), 0.1)
    launched = dispatch.kernel_fn(var.kernel)[grid](*args, **kwargs)
    assert launched.asm["cubin"] == C.compile_offline(*variant_launch(var)).cubin


@pytest.mark.gpu
@pytest.mark.parametrize("d", [128, 256])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("window,softcap", [((-1, -1), 0.0), ((30, 20), 25.0)])
def test_gpu_sm90_varlen_keeps_sequences_apart(hopper_varlen, d, causal, window, softcap):
    """NaN and inf in one sequence's queries, keys and values (and in the padding rows past the last offsets) change no
    other sequence's output, bit for bit: rows past a sequence arrive as TMA's zeros, or (sequence 0, whose keys end
    within k's first block) are read and then zeroed in shared memory (V) or masked (K, Q); and nothing is written past
    the last sequence (NaN-poisoned by the fixture). Also with a window and a soft-cap (the local soft-capping build;
    causal: the window's right side 0)."""
    gen = torch.Generator().manual_seed(d)
    lens_q, lens_k = [70, 200, 33, 130], [40, 250, 33, 100]  # sequence 0's keys end within k's first key block
    q, k, v, cu_q, cu_k = packed(lens_q, lens_k, 4, 2, d, torch.bfloat16, "cuda", gen, pad_q=5, pad_k=5)
    opts = dict(causal=causal, window_size=window, softcap=softcap)
    clean = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 200, 250, **opts)
    assert _plan_kernels() == [variants.VARLEN_SM90_KERNELS[(window != (-1, -1), softcap > 0)]]
    cq, ck = cu_q.tolist(), cu_k.tolist()
    for t, rows in ((q, slice(cq[1], cq[2])), (k, slice(ck[1], ck[2])), (v, slice(ck[1], ck[2]))):
        t[rows] = float("nan")
        t[rows.start] = float("inf")
    for t, c in ((q, cq), (k, ck), (v, ck)):  # the padding rows past the last sequence
        t[c[-1]:] = float("nan")
    dirty = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 200, 250, **opts)
    for b in (0, 2, 3):
        assert torch.equal(dirty[cq[b]:cq[b + 1]], clean[cq[b]:cq[b + 1]]), f"sequence {b} changed"
        assert not dirty[cq[b]:cq[b + 1]].isnan().any()
    assert dirty[cq[-1]:].isnan().all()  # never written (poisoned)


@pytest.mark.gpu
@pytest.mark.parametrize("causal", [False, True])
def test_gpu_sm90_varlen_rows_past_max_seqlen_are_nan(hopper_varlen, causal):
    """max_seqlen_q smaller than a sequence (a caller's error the kernel cannot see without reading the offsets): that
    sequence's rows past the grid's tiles get NaN (out and lse), as on the portable kernel, and the others are right."""
    gen = torch.Generator().manual_seed(5)
    lens = [300, 900, 128]
    q, k, v, cu, _ = packed(lens, lens, 4, 4, 128, torch.bfloat16, "cuda", gen)
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 300, 900, causal=causal, return_lse=True)
    assert _plan_kernels() == [variants.VARLEN_SM90_KERNEL]
    tiles = -(-300 // variants.VARLEN_SM90[128].block_m) * variants.VARLEN_SM90[128].block_m  # rows the grid covers
    c = cu.tolist()
    assert out[c[1] + tiles:c[2]].isnan().all() and lse[:, c[1] + tiles:c[2]].isnan().all()
    assert not out[c[1]:c[1] + tiles].isnan().any() and not lse[:, c[1]:c[1] + tiles].isnan().any()
    for b in (0, 2):
        ref, _ = attention_ref(q[None, c[b]:c[b + 1]], k[None, c[b]:c[b + 1]], v[None, c[b]:c[b + 1]],
                               1 / math.sqrt(128), 0 if causal else None)
        assert rel_err(out[None, c[b]:c[b + 1]], ref) < TOL[torch.bfloat16]


@pytest.mark.gpu
def test_gpu_sm90_varlen_offsets_out_of_range_stay_inside(hopper_varlen):
    """Offsets past the tensors or out of order are clamped (no access outside q, k, v, out and lse: the sanitizer run
    checks that; here no error, and a well-formed sequence before them is right)."""
    gen = torch.Generator().manual_seed(6)
    q, k, v, _, _ = packed([256], [256], 4, 4, 128, torch.bfloat16, "cuda", gen)
    cu = torch.tensor([0, 200, 10 ** 6, 150, -7], dtype=torch.int32, device="cuda")  # [200, 256) after the clamps
    out = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 300, 300, causal=True)
    torch.cuda.synchronize()
    assert _plan_kernels() == [variants.VARLEN_SM90_KERNEL]
    ref, _ = attention_ref(q[None, :200], k[None, :200], v[None, :200], 1 / math.sqrt(128), 0)
    assert rel_err(out[None, :200], ref) < TOL[torch.bfloat16]


@pytest.mark.gpu
def test_gpu_sm90_varlen_wide():
    """q, k, v past 32-bit element offsets (views of one (rows, 3, H, D) tensor of 2.15e9 elements, flash-attn's packed
    qkv layout) run on the Hopper kernel, whose descriptors take 64-bit strides: the portable kernel refuses them. The
    first and last sequences (the last at element offsets past 2^31) are bitwise equal to the same sequences in calls
    of their own and right against float64."""
    api._PLANS.clear()
    h, d, lens = 8, 128, [900, 1100] * 350  # 700,000 rows; max 1,100 queries: past the rule's 512
    rows = sum(lens)
    buf = torch.empty(rows, 3, h, d, device="cuda", dtype=torch.bfloat16)
    gen = torch.Generator(device="cuda").manual_seed(9)
    for i in range(0, rows, 100_000):  # (in pieces: one randn of 2.15e9 elements would need as much again)
        buf[i:i + 100_000].normal_(generator=gen)
    q, k, v = buf.unbind(1)
    cu = offsets(lens, "cuda")
    out, lse = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, 1100, 1100, return_lse=True)
    assert _plan_kernels() == [variants.VARLEN_SM90_KERNEL]
    c = cu.tolist()
    for b in (0, len(lens) - 1):
        r0, r1 = c[b], c[b + 1]
        qs, ks, vs = (t[r0:r1].contiguous() for t in (q, k, v))
        one = torch.tensor([0, r1 - r0], dtype=torch.int32, device="cuda")
        o1, l1 = dhpfa.flash_attn_varlen_func(qs, ks, vs, one, one, r1 - r0, r1 - r0, return_lse=True)
        assert torch.equal(out[r0:r1], o1) and torch.equal(lse[:, r0:r1], l1), f"sequence {b}"
        ref, _ = attention_ref(qs[None], ks[None], vs[None], 1 / math.sqrt(d))
        assert rel_err(o1[None], ref) < TOL[torch.bfloat16]
    del buf, q, k, v, out, lse
    torch.cuda.empty_cache()


@pytest.mark.gpu
@pytest.mark.parametrize("causal,window,softcap", [(False, (-1, -1), 0.0), (True, (-1, -1), 0.0),
                                                   (True, (200, 0), 30.0), (False, (90, 40), 0.0)])
def test_gpu_sm90_varlen_kvcache_chunk(hopper_varlen, causal, window, softcap):
    """A prefill chunk against caches of per-sequence lengths (flash_attn_with_kvcache: (start, end) key rows,
    K_STRIDE 2) on the Hopper kernel: new tokens appended in place, cache_batch_idx permuting the rows, NaN in every
    cache slot past each sequence's keys (never read: zero-filled or zeroed), against float64 per sequence; also with a
    window and a soft-cap (the local / soft-capping builds, session 31)."""
    gen = torch.Generator().manual_seed(31)
    b, sc, h, hk, d, s_new = 4, 700, 8, 2, 128, 150
    lens = torch.tensor([0, 37, 300, 549], dtype=torch.int32)
    idx = torch.tensor([2, 0, 3, 1], dtype=torch.int32)
    kc, vc = (torch.randn(b, sc, hk, d, generator=gen).to(torch.bfloat16) for _ in range(2))
    for t in (kc, vc):
        for i in range(b):
            t[int(idx[i]), int(lens[i]) + s_new:] = float("nan")
    q = torch.randn(b, s_new, h, d, generator=gen).to(torch.bfloat16)
    k_new, v_new = (torch.randn(b, s_new, hk, d, generator=gen).to(torch.bfloat16) for _ in range(2))
    kc, vc, q, k_new, v_new, lens_d, idx_d = (t.cuda() for t in (kc, vc, q, k_new, v_new, lens, idx))
    out, lse = dhpfa.flash_attn_with_kvcache(q, kc, vc, k_new, v_new, cache_seqlens=lens_d, cache_batch_idx=idx_d,
                                             causal=causal, window_size=window, softcap=softcap,
                                             return_softmax_lse=True)
    assert _plan_kernels() == [variants.VARLEN_SM90_KERNELS[(window != (-1, -1), softcap > 0)]]
    assert not out.isnan().any()
    for i in range(b):
        r, n = int(idx[i]), int(lens[i]) + s_new
        ref, ref_lse = attention_ref(q[i:i + 1], kc[r:r + 1, :n], vc[r:r + 1, :n], 1 / math.sqrt(d),
                                     n - s_new if causal else None, window if window != (-1, -1) else None, softcap)
        assert rel_err(out[i:i + 1], ref) < TOL[torch.bfloat16], f"sequence {i}"
        assert torch.allclose(lse[i:i + 1].double().cpu(), ref_lse, rtol=1e-3, atol=1e-3)


@interp
@pytest.mark.parametrize("heads", [4, 2])
@pytest.mark.parametrize("window,cap,causal", [((5, 3), 0.0, False), ((-1, -1), 20.0, True), ((7, -1), 15.0, True),
                                               ((0, 0), 0.0, False)])
def test_paged_cache_with_window_or_softcap(window, cap, causal, heads, monkeypatch):
    """Paged caches with a local window and / or a soft-cap: grouped-query heads (4 query heads on 2 key/value heads,
    few queries) on the grouped paged builds that take them (session 34), one query head per key/value head through
    api._gather_pages (session 33: each sequence's pages copied into contiguous rows, then the unpaged builds): NaN in
    every cache row that holds no key (never read into a result), pages in a random order, table entries past the
    cache (clamped), a sequence without keys; through flash_attn_varlen_func and flash_attn_with_kvcache (a chunk of 3
    queries per sequence), against float64 per sequence."""
    gathered, gather = [], api._gather_pages
    monkeypatch.setattr(api, "_gather_pages", lambda *a, **kw: gathered.append(1) or gather(*a, **kw))
    monkeypatch.setattr(api, "_PLANS", {})
    gen = torch.Generator().manual_seed(33)
    lens_k, lens_q, page = [37, 0, 16, 9], [3, 2, 5, 1], 16
    kc, vc, bt, keys, vals = _nan_paged(lens_k, 2, 32, page, gen, torch.float16, page0_seq=0)
    q = (torch.randn(sum(lens_q), heads, 32, generator=gen) * 2).half()
    cu_q, cu_k = offsets(lens_q, "cpu"), offsets(lens_k, "cpu")
    out, lse = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
                                            window_size=window, softcap=cap, block_table=bt, return_lse=True)
    ref_window = (window[0], 0 if causal else window[1]) if window != (-1, -1) else None
    check_sequences(out, lse, q, torch.cat(keys), torch.cat(vals), cu_q, cu_k, 1 / math.sqrt(32), causal,
                    TOL[torch.float16], ref_window, cap)
    # flash_attn_with_kvcache: 3 queries per sequence against cache_seqlens keys of the same pages (one sequence empty
    # of keys is not allowed there with causal: lengths of at least 3)
    lens_c = [37, 3, 16, 9]
    kc, vc, bt, keys, vals = _nan_paged(lens_c, 2, 32, page, gen, torch.float16, page0_seq=2)
    qc = (torch.randn(len(lens_c), 3, heads, 32, generator=gen) * 2).half()
    oc, lc = dhpfa.flash_attn_with_kvcache(qc, kc, vc, cache_seqlens=torch.tensor(lens_c, dtype=torch.int32),
                                           block_table=bt, causal=causal, window_size=window, softcap=cap,
                                           return_softmax_lse=True)
    out_c = torch.full((oc.shape[0] * 3 + 2, heads, 32), float("nan"), dtype=oc.dtype)  # two rows outside every sequence
    out_c[:-2] = oc.flatten(0, 1)
    lse_c = torch.full((heads, out_c.shape[0]), float("nan"))
    lse_c[:, :-2] = lc.permute(1, 0, 2).flatten(1)
    check_sequences(out_c, lse_c, qc.flatten(0, 1), torch.cat(keys), torch.cat(vals), offsets([3] * 4, "cpu"),
                    offsets(lens_c, "cpu"), 1 / math.sqrt(32), causal, TOL[torch.float16], ref_window, cap)
    kernels = _plan_kernels()
    if heads == 4:  # the grouped paged builds with the window / soft-cap inside, no copy
        assert not gathered and len(kernels) == 2 and all("_gqa_paged" in n for n in kernels)
        assert all(("_local" in n) == (window != (-1, -1)) and ("_softcap" in n) == (cap > 0) for n in kernels)
    else:
        assert len(gathered) == 2 and not any("_paged" in n for n in kernels)


def _nan_paged(lens_k, hk, d, page, gen, dtype, page0_seq):
    """A paged cache (pages in a random order, two unused) whose every row that holds no key is NaN (unused pages, the
    rows past each sequence's end in its last page), sequence page0_seq's last page being page 0 (so a last block of
    fewer keys than a key block at the start of page 0: the Hopper paged build's V fix-up, sm90_fwd._paged_blocks);
    with the block table (unused entries -1 / far past the cache: clamped, never read for a key) and each sequence's
    keys and values gathered in order (on the CPU)."""
    blocks = [-(-n // page) for n in lens_k]
    nb = sum(blocks) + 2
    kc = torch.full((nb, page, hk, d), float("nan"), dtype=dtype)
    vc = torch.full((nb, page, hk, d), float("nan"), dtype=dtype)
    free = [p_ for p_ in torch.randperm(nb, generator=gen).tolist() if p_ != 0]
    width = max(max(blocks), 1)
    bt = torch.full((len(lens_k), width), 10 ** 6, dtype=torch.int32)
    keys, vals = [], []
    for b, n in enumerate(lens_k):
        own = [free.pop() for _ in range(blocks[b])]
        if b == page0_seq:
            own[-1] = 0
        bt[b, :len(own)] = torch.tensor(own, dtype=torch.int32)
        if len(own) < width:
            bt[b, len(own)] = -1
        kk = torch.randn(n, hk, d, generator=gen).to(dtype)
        vv = torch.randn(n, hk, d, generator=gen).to(dtype)
        for j in range(n):
            kc[own[j // page], j % page] = kk[j]
            vc[own[j // page], j % page] = vv[j]
        keys.append(kk)
        vals.append(vv)
    return kc, vc, bt, keys, vals


@pytest.mark.gpu
@pytest.mark.parametrize("d,page", [(96, 128), (128, 256), (256, 64), (256, 256)])
@pytest.mark.parametrize("causal", [False, True])
def test_gpu_sm90_varlen_paged_against_float64(hopper_varlen, d, page, causal):
    """Paged caches on the Hopper kernel (attn_fwd_sm90_varlen_paged, session 32): pages in a random order, every row
    that holds no key NaN, sequences ending inside a page, on a page boundary, inside a key block, one with no keys, one
    whose last block of fewer keys than a key block starts page 0 (the producer's V fix-up); against float64 per
    sequence, bitwise equal to the same call on the keys gathered contiguously (the Hopper kernel's unpaged build: the
    same blocks in the same order), and through flash_attn_with_kvcache (a prefill chunk against the paged cache: (start,
    end) key rows) bitwise equal to the varlen call. Then the cached launcher (bitwise) and the audited binary."""
    from dhpfa.audit import compile as C, variant_launch
    from dhpfa.kernels import dispatch
    gen = torch.Generator().manual_seed(32 + d + page + causal)
    bn = variants.VARLEN_SM90[d].block_n
    lens_k = [page + bn // 2 + 3, 1, 0, 3 * page, 2 * page + bn + 1, 700, bn]
    lens_q = [129, 1, 5, 300, 64, 65, 200]
    kc, vc, bt, keys, vals = _nan_paged(lens_k, 2, d, page, gen, torch.bfloat16, page0_seq=0)
    q = torch.randn(sum(lens_q), 8, d, generator=gen).to(torch.bfloat16)
    kc, vc, bt, q = kc.cuda(), vc.cuda(), bt.cuda(), q.cuda()
    cu_q, cu_k = offsets(lens_q, "cuda"), offsets(lens_k, "cuda")
    out, lse = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
                                            block_table=bt, return_lse=True)
    assert _plan_kernels() == [variants.VARLEN_SM90_PAGED_KERNEL]
    k_cat, v_cat = torch.cat(keys).cuda(), torch.cat(vals).cuda()
    check_sequences(out, lse, q, k_cat, v_cat, cu_q, cu_k, d ** -0.5, causal, TOL[torch.bfloat16])
    flat_o, flat_l = dhpfa.flash_attn_varlen_func(q, k_cat, v_cat, cu_q, cu_k, max(lens_q), max(lens_k),
                                                  causal=causal, return_lse=True)
    assert variants.VARLEN_SM90_KERNEL in _plan_kernels()
    assert torch.equal(out, flat_o) and torch.equal(lse, flat_l), "paged and contiguous keys: the same bits"
    for _ in range(3):  # the plan's fast launcher (block table and page metadata passed by name)
        o2, l2 = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
                                              block_table=bt, return_lse=True)
        assert torch.equal(o2, out) and torch.equal(l2, lse)
    (plan,) = [p for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)
               and p.variant.kernel == variants.VARLEN_SM90_PAGED_KERNEL]
    assert plan.launcher is not None
    # flash_attn_with_kvcache: a chunk of s_new queries per sequence against its cache_seqlens keys (no new keys)
    s_new = 100
    lens_c = [max(n, s_new) for n in lens_k]
    kc2, vc2, bt2, _, _ = _nan_paged(lens_c, 2, d, page, gen, torch.bfloat16, page0_seq=0)
    qc = torch.randn(len(lens_c), s_new, 8, d, generator=gen).to(torch.bfloat16).cuda()
    kc2, vc2, bt2 = kc2.cuda(), vc2.cuda(), bt2.cuda()
    lens_d = torch.tensor(lens_c, dtype=torch.int32, device="cuda")
    oc, lc = dhpfa.flash_attn_with_kvcache(qc, kc2, vc2, cache_seqlens=lens_d, block_table=bt2, causal=causal,
                                           return_softmax_lse=True)
    ov, lv = dhpfa.flash_attn_varlen_func(qc.flatten(0, 1), kc2, vc2, offsets([s_new] * len(lens_c), "cuda"),
                                          offsets(lens_c, "cuda"), s_new, max(lens_c), causal=causal, block_table=bt2,
                                          return_lse=True)
    assert torch.equal(oc.flatten(0, 1), ov)
    assert torch.equal(lc.permute(1, 0, 2).flatten(1), lv)
    # the launched binary is the audited one
    var = variants.varlen_sm90_variant(torch.bfloat16, d, causal, paged=True)
    rows = kc.view(-1, 2, d)
    grid, args, kwargs = dispatch.varlen_launch_args(var, q, rows, vc.view(-1, 2, d),
                                                     api._varlen_out(q, var.config.block_m // 2),
                                                     torch.empty_like(lse), cu_q, cu_k, max(lens_q), 0.1,
                                                     paged=(bt, page, kc.shape[0]))
    launched = dispatch.kernel_fn(var.kernel)[grid](*args, **kwargs)
    assert launched.asm["cubin"] == C.compile_offline(*variant_launch(var)).cubin


@pytest.mark.gpu
@pytest.mark.parametrize("d", [128, 256])
@pytest.mark.parametrize("window,cap,causal", [((100, 0), 0.0, True), ((-1, -1), 30.0, True), ((37, 70), 20.0, False),
                                               ((300, 0), 15.0, True)])
def test_gpu_sm90_varlen_paged_window_softcap(hopper_varlen, d, window, cap, causal):
    """The Hopper paged builds with a local window and / or a soft-cap (session 33: attn_fwd_sm90_varlen_*_paged):
    pages in a random order, NaN in every row that holds no key, the page-0 fix-up, a window that starts past the
    sequence's first page (the producer's first block j0 > 0); against float64 per sequence and bitwise equal to the
    same call on the keys gathered contiguously (the unpaged local / soft-capping build); then the cached launcher."""
    gen = torch.Generator().manual_seed(33 + d)
    bn = variants.VARLEN_SM90[d].block_n
    page = 2 * bn
    lens_k = [page + bn // 2 + 3, 1, 0, 3 * page, 2 * page + bn + 1, 700, bn]
    lens_q = [129, 1, 5, 300, 64, 65, 200]
    kc, vc, bt, keys, vals = _nan_paged(lens_k, 2, d, page, gen, torch.bfloat16, page0_seq=0)
    q = torch.randn(sum(lens_q), 8, d, generator=gen).to(torch.bfloat16).cuda()
    kc, vc, bt = kc.cuda(), vc.cuda(), bt.cuda()
    cu_q, cu_k = offsets(lens_q, "cuda"), offsets(lens_k, "cuda")
    local = window != (-1, -1)
    out, lse = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
                                            window_size=window, softcap=cap, block_table=bt, return_lse=True)
    assert _plan_kernels() == [variants.VARLEN_SM90_PAGED_KERNELS[(local, cap > 0)]]
    k_cat, v_cat = torch.cat(keys).cuda(), torch.cat(vals).cuda()
    ref_window = (window[0], 0 if causal else window[1]) if local else None
    check_sequences(out, lse, q, k_cat, v_cat, cu_q, cu_k, d ** -0.5, causal, TOL[torch.bfloat16], ref_window, cap)
    flat_o, flat_l = dhpfa.flash_attn_varlen_func(q, k_cat, v_cat, cu_q, cu_k, max(lens_q), max(lens_k),
                                                  causal=causal, window_size=window, softcap=cap, return_lse=True)
    assert variants.VARLEN_SM90_KERNELS[(local, cap > 0)] in _plan_kernels()
    assert torch.equal(out, flat_o) and torch.equal(lse, flat_l), "paged and contiguous keys: the same bits"
    for _ in range(2):  # the plan's fast launcher
        o2 = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
                                          window_size=window, softcap=cap, block_table=bt)
        assert torch.equal(o2, out)


SM90_WINDOWS = [((300, 0), True), ((100, 50), False), ((0, 0), False), ((-1, 129), False), ((1000, -1), False),
                ((5, 5), False), ((64, 0), True), ((200, 300), False)]


@pytest.mark.gpu
@pytest.mark.parametrize("d", [96, 128, 256])
@pytest.mark.parametrize("window,causal", SM90_WINDOWS)
@pytest.mark.parametrize("softcap", [0.0, 30.0])
def test_gpu_sm90_varlen_window_softcap_against_float64(hopper_varlen, d, window, causal, softcap):
    """Local windows and soft-capping on the Hopper kernel (attn_fwd_sm90_varlen_local / _softcap / _local_softcap;
    session 31): windows narrower than a key block and wider than several (masked blocks at both edges, unmasked ones
    between, the tile's first block past 0), one side unbounded, causal calls (right side 0), seq_q != seq_k both
    ways, rows that see no key (0 and -inf), a sequence with no queries and one with no keys; queries scaled so the
    cap binds; against float64 per sequence. Then the launched binary is the audited one."""
    from dhpfa.audit import compile as C, variant_launch
    from dhpfa.kernels import dispatch
    lens_q, lens_k = [129, 700, 1, 300, 0, 1000, 65, 200], [129, 900, 10, 300, 5, 1000, 0, 60]
    q, k, v, cu_q, cu_k, out, lse = run_case(lens_q, lens_k, 4, 2, d, causal, torch.bfloat16, "cuda",
                                             seed=d + sum(window), pad_q=3, pad_k=3, window=window, softcap=softcap,
                                             spread=3.0 if softcap else 1.0)
    local = api._check_flash_options(0.0, window, softcap, None, causal)[0]
    var = variants.varlen_sm90_variant(torch.bfloat16, d, causal and not local, local=local, softcap=softcap > 0)
    assert _plan_kernels() == [var.kernel]
    for _ in range(3):  # the cached launcher: bitwise the first call's
        o2, l2 = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
                                              window_size=window, softcap=softcap, return_lse=True)
        assert torch.equal(o2[:cu_q[-1]], out[:cu_q[-1]]) and torch.equal(l2[:, :cu_q[-1]], lse[:, :cu_q[-1]])
    left, right = window
    grid, args, kwargs = dispatch.varlen_launch_args(var, q, k, v, api._varlen_out(q, var.config.block_m // 2),
                                                     torch.empty_like(lse), cu_q, cu_k, max(lens_q), 0.1,
                                                     (left, 0 if causal else right), softcap)
    launched = dispatch.kernel_fn(var.kernel)[grid](*args, **kwargs)
    assert launched.asm["cubin"] == C.compile_offline(*variant_launch(var)).cubin


@pytest.mark.gpu
@pytest.mark.parametrize("causal", [False, True])
def test_gpu_sm90_dense_window_softcap(hopper_varlen, causal):
    """flash_attn_func with a window and a soft-cap (Gemma-2's sliding layers: causal, window 4095 to the left, softcap
    50; here a window shorter than the sequence) runs its batch as sequences of the Hopper kernel, against float64."""
    gen = torch.Generator().manual_seed(41)
    q, k, v = (torch.randn(2, 1500, 8, 256, generator=gen).to("cuda", torch.bfloat16) for _ in range(3))
    window = (400, 0 if causal else 77)
    out, lse = dhpfa.flash_attn_func(q * 3, k, v, causal=causal, window_size=window, softcap=50.0, return_lse=True)
    assert _plan_kernels() == [variants.VARLEN_SM90_KERNELS[(True, True)]]
    ref, ref_lse = attention_ref(q * 3, k, v, 256 ** -0.5, 0 if causal else None, window, 50.0)
    assert rel_err(out, ref) < TOL[torch.bfloat16]
    assert torch.allclose(lse.double().cpu(), ref_lse, rtol=1e-3, atol=1e-3)


# ---- flash_attn_with_kvcache (on the varlen kernel; CPU interpreter) ------------------------------------------------
def _cache(b=3, sc=40, hk=2, d=32, seed=30):
    gen = torch.Generator().manual_seed(seed)
    kc = torch.randn(b, sc, hk, d, generator=gen).half()
    vc = torch.randn(b, sc, hk, d, generator=gen).half()
    return kc, vc, gen


@interp
@pytest.mark.parametrize("sq,s_new,causal,opts", [(1, 0, True, {}), (1, 1, True, {}), (3, 3, True, {}),
                                                   (4, 2, False, {}), (2, 2, True, dict(window_size=(6, 0))),
                                                   (1, 1, True, dict(softcap=2.0))])
def test_kvcache_against_float64(grouped, sq, s_new, causal, opts):
    """Decode and few-query steps against a cache of per-sequence lengths (one empty), new tokens appended in place
    (the cache's other positions unchanged), cache_batch_idx permuting the rows, against float64 per sequence."""
    kc, vc, gen = _cache()
    lens = torch.tensor([5, 17, 0], dtype=torch.int32)
    q = (torch.randn(3, sq, 4, 32, generator=gen) * 2).half()
    k_new, v_new = (torch.randn(3, s_new, 2, 32, generator=gen).half() for _ in range(2)) if s_new else (None, None)
    idx = torch.tensor([2, 0, 1], dtype=torch.int32)
    kc0, vc0 = kc.clone(), vc.clone()
    out, lse = dhpfa.flash_attn_with_kvcache(q, kc, vc, k_new, v_new, cache_seqlens=lens, cache_batch_idx=idx,
                                             causal=causal, return_softmax_lse=True, **opts)
    assert out.shape == q.shape and lse.shape == (3, 4, sq)
    for b in range(3):
        r, n = int(idx[b]), int(lens[b]) + s_new
        if s_new:
            assert torch.equal(kc[r, lens[b]:n], k_new[b]) and torch.equal(vc[r, lens[b]:n], v_new[b])
        assert torch.equal(kc[r, n:], kc0[r, n:]) and torch.equal(kc[r, :lens[b]], kc0[r, :lens[b]])
        ref, ref_lse = attention_ref(q[b:b + 1], kc[r:r + 1, :n], vc[r:r + 1, :n], 1 / math.sqrt(32),
                                     n - sq if causal else None, opts.get("window_size"), opts.get("softcap", 0.0))
        finite = torch.isfinite(ref_lse)
        if finite.any():
            assert rel_err(out[b:b + 1], ref) < TOL[torch.float16]
        assert torch.equal(torch.isfinite(lse[b:b + 1]), finite)
        assert torch.allclose(lse[b:b + 1][finite].double(), ref_lse[finite], rtol=1e-3, atol=1e-3)


@interp
@pytest.mark.parametrize("num_splits", [1, 2, 3, 5])
def test_kvcache_num_splits(num_splits, monkeypatch):
    """flash-attn's num_splits: n > 0 runs n parts on the portable kernel (1: none), in place of the rule's count, with
    the same outputs (to rounding) and against float64; the count is part of the call plan's signature, so calls that
    differ only in it keep plans of their own."""
    monkeypatch.setattr(api, "_PLANS", {})
    kc, vc, gen = _cache()
    lens = torch.tensor([5, 40, 23], dtype=torch.int32)
    q = (torch.randn(3, 1, 4, 32, generator=gen) * 2).half()
    out, lse = dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=True, num_splits=num_splits,
                                             return_softmax_lse=True)
    plans = [p for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)]
    assert [p.splits for p in plans] == [num_splits]
    assert (plans[0].combine is not None) == (num_splits > 1)
    ref_out = dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=True)
    assert sorted(p.splits for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)) == sorted([num_splits, 1])
    assert rel_err(out, ref_out.double()) < TOL[torch.float16]
    for b in range(3):
        n = int(lens[b])
        ref, ref_lse = attention_ref(q[b:b + 1], kc[b:b + 1, :n], vc[b:b + 1, :n], 1 / math.sqrt(32), n - 1)
        assert rel_err(out[b:b + 1], ref) < TOL[torch.float16]
        assert torch.allclose(lse[b:b + 1].double(), ref_lse, rtol=1e-3, atol=1e-3)


@interp
def test_kvcache_int_and_full_lengths_match_varlen():
    kc, vc, gen = _cache(b=2)
    q = torch.randn(2, 1, 2, 32, generator=gen).half()
    full = dhpfa.flash_attn_with_kvcache(q, kc, vc)  # no lengths: the whole cache
    cu = torch.tensor([0, 40, 80], dtype=torch.int32)
    ref = dhpfa.flash_attn_varlen_func(q.view(2, 2, 32), kc.view(80, 2, 32), vc.view(80, 2, 32),
                                       torch.tensor([0, 1, 2], dtype=torch.int32), cu, 1, 40)
    assert torch.equal(full.view(2, 2, 32), ref)
    part = dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=9)
    ref9, _ = attention_ref(q, kc[:, :9], vc[:, :9], 1 / math.sqrt(32))
    assert rel_err(part, ref9) < TOL[torch.float16]


@interp
@pytest.mark.parametrize("kw,exc,match", [
    (dict(rotary_cos=torch.zeros(40, 8).half(), rotary_sin=torch.zeros(40, 8).half()), ValueError,
     r"^rotary_cos, rotary_sin: rotary embeddings apply to the new tokens; pass k and v too"),
    (dict(block_table=torch.zeros(2, 1)), ValueError, r"^block_table: expected an int32 tensor \(batch 2, "),
    (dict(block_table=torch.zeros(3, 1, dtype=torch.int32)), ValueError, r"^block_table: expected an int32 tensor"),
    (dict(block_table=torch.zeros(2, 1, dtype=torch.int32), cache_batch_idx=torch.tensor([0, 1], dtype=torch.int32)),
     ValueError, r"^cache_batch_idx: not supported with a paged cache"),
    (dict(cache_leftpad=torch.zeros(2)), ValueError, r"^cache_leftpad: expected an int32 tensor of shape \(2,\) on cpu, "
     r"got torch.float32 \(2,\)"),
    (dict(cache_leftpad=[0, 1]), ValueError, r"^cache_leftpad: expected an int32 tensor .* got list"),
    (dict(cache_leftpad=torch.zeros(2, dtype=torch.int32), block_table=torch.zeros(2, 1, dtype=torch.int32)),
     ValueError, r"^cache_leftpad: not supported with a paged cache \(block_table\)"),
    (dict(cache_seqlens=torch.tensor([1, 2])), ValueError, r"^cache_seqlens: expected an int32 tensor of shape \(2,\)"),
    (dict(cache_seqlens=41), ValueError, r"^cache_seqlens: expected 0 .. 40"),
    (dict(cache_seqlens=1.5), TypeError, r"^cache_seqlens: expected an int or an int32 tensor, got float"),
    (dict(cache_batch_idx=torch.tensor([0, 1])), ValueError, r"^cache_batch_idx: expected an int32 tensor"),
    (dict(k=torch.zeros(2, 1, 2, 32).half()), ValueError, r"^k, v: pass both"),
    (dict(k=torch.zeros(2, 1, 3, 32).half(), v=torch.zeros(2, 1, 3, 32).half()), ValueError,
     r"^k: expected shape \(2, seqlen_new, 2, 32\)"),
    (dict(alibi_slopes=torch.zeros(2)), NotImplementedError, r"^alibi_slopes"),
    (dict(num_splits=-1), ValueError, r"^num_splits: expected an int >= 0 \(0: dhpfa's rule\), got -1"),
    (dict(num_splits=True), ValueError, r"^num_splits: expected an int >= 0 .* got True"),
    (dict(num_splits=2.0), ValueError, r"^num_splits: expected an int >= 0 .* got 2.0"),
])
def test_kvcache_bad_arguments(kw, exc, match):
    kc, vc, gen = _cache(b=2)
    q = torch.randn(2, 1, 2, 32, generator=gen).half()
    with pytest.raises(exc, match=match):
        dhpfa.flash_attn_with_kvcache(q, kc, vc, **kw)


def _rotate_ref(x, cos, sin, pos, interleaved):
    """Rotary embedding in float64 as complex rotations: pairs (2i, 2i + 1) (interleaved) or (i, i + r / 2) of the
    first r = 2 * cos.shape[1] dims of x (B, S, H, D), turned by the angle whose cosine and sine are cos[pos], sin[pos]
    (pos (B, S))."""
    half = cos.shape[1]
    x = x.double()
    xr = x[..., :2 * half]
    a, b = (xr[..., 0::2], xr[..., 1::2]) if interleaved else (xr[..., :half], xr[..., half:])
    z = torch.complex(a, b) * torch.complex(cos.double()[pos], sin.double()[pos])[:, :, None, :]
    rot = torch.stack((z.real, z.imag), -1).flatten(-2) if interleaved else torch.cat((z.real, z.imag), -1)
    return torch.cat((rot, x[..., 2 * half:]), -1)


@interp
@pytest.mark.parametrize("interleaved", [True, False])
@pytest.mark.parametrize("causal,window,per_row", [(True, (-1, -1), True), (False, (-1, -1), False),
                                                   (False, (6, 0), True), (False, (100, -1), False)])
def test_kvcache_rotary_against_float64(interleaved, causal, window, per_row):
    """flash-attn's rotary embedding: the new keys rotated at their positions before they are written, q at its own
    positions (causal, or a window that binds at the cache's length) or every query at the first new position;
    rotary_dim 16 of head dim 32 (the rest untouched), interleaved (GPT-J) or halves (GPT-NeoX); per-sequence lengths
    and permuted cache rows; against float64 rotations (complex products) and attention."""
    kc, vc, gen = _cache(seed=47)
    sq, s_new = 3, 3
    lens = torch.tensor([5, 17, 0], dtype=torch.int32)
    idx = torch.tensor([1, 2, 0], dtype=torch.int32)
    q = torch.randn(3, sq, 4, 32, generator=gen).half()
    k_new, v_new = (torch.randn(3, s_new, 2, 32, generator=gen).half() for _ in range(2))
    angle = torch.rand(40, 8, generator=gen) * 2 * math.pi
    cos, sin = angle.cos().half(), angle.sin().half()
    out = dhpfa.flash_attn_with_kvcache(q, kc, vc, k_new, v_new, rotary_cos=cos, rotary_sin=sin, cache_seqlens=lens,
                                        cache_batch_idx=idx, causal=causal, window_size=window,
                                        rotary_interleaved=interleaved)
    start = lens.long()[:, None]
    k_ro = _rotate_ref(k_new, cos, sin, start + torch.arange(s_new), interleaved)
    q_ro = _rotate_ref(q, cos, sin, start + torch.arange(sq) if per_row else start.expand(-1, sq), interleaved)
    for b in range(3):
        r, n = int(idx[b]), int(lens[b]) + s_new
        written = kc[r, lens[b]:n].double()
        assert (written - k_ro[b]).abs().max() < 1e-2, "the rotated keys are written into the cache"
        assert torch.equal(vc[r, lens[b]:n], v_new[b]), "values are not rotated"
        win = None if window == (-1, -1) else (window[0], 0 if causal else window[1])
        ref, _ = attention_ref(q_ro[b:b + 1], kc[r:r + 1, :n], vc[r:r + 1, :n], 1 / math.sqrt(32),
                               n - sq if causal else None, win)
        assert rel_err(out[b:b + 1], ref) < TOL[torch.float16], b


@interp
@pytest.mark.parametrize("causal,rotary", [(True, False), (False, False), (True, True)])
def test_kvcache_leftpad_against_float64(causal, rotary):
    """cache_leftpad (flash-attn's): sequence b's keys are positions leftpad[b] .. lens[b] + S_new - 1 of its cache row
    (one sequence padded up to its new tokens, one start past its end: clamped, no cached keys), causal alignment on
    those keys, new tokens written at lens[b], rotary positions absolute in the row; permuted cache rows; float64."""
    kc, vc, gen = _cache(seed=48)
    sq, s_new = 2, 2
    lens = torch.tensor([12, 30, 7], dtype=torch.int32)
    leftpad = torch.tensor([3, 0, 40], dtype=torch.int32)  # 40: past the end (9), clamped: no keys at all
    idx = torch.tensor([2, 0, 1], dtype=torch.int32)
    q = torch.randn(3, sq, 4, 32, generator=gen).half()
    k_new, v_new = (torch.randn(3, s_new, 2, 32, generator=gen).half() for _ in range(2))
    rot = {}
    if rotary:
        angle = torch.rand(40, 8, generator=gen) * 2 * math.pi
        rot = dict(rotary_cos=angle.cos().half(), rotary_sin=angle.sin().half())
    out, lse = dhpfa.flash_attn_with_kvcache(q, kc, vc, k_new, v_new, cache_seqlens=lens, cache_batch_idx=idx,
                                             cache_leftpad=leftpad, causal=causal, return_softmax_lse=True, **rot)
    q_ref = q
    if rotary:
        q_ref = _rotate_ref(q, rot["rotary_cos"], rot["rotary_sin"], lens.long()[:, None] + torch.arange(sq), True)
    for b in range(3):
        r, n = int(idx[b]), int(lens[b]) + s_new
        first = min(int(leftpad[b]), n)
        if not rotary:
            assert torch.equal(kc[r, lens[b]:n], k_new[b]), "new tokens at cache_seqlens, whatever the left padding"
        ref, ref_lse = attention_ref(q_ref[b:b + 1], kc[r:r + 1, first:n], vc[r:r + 1, first:n], 1 / math.sqrt(32),
                                     (n - first) - sq if causal else None)
        finite = torch.isfinite(ref_lse)
        assert torch.equal(torch.isfinite(lse[b:b + 1]), finite), b
        if finite.any():
            assert rel_err(out[b:b + 1], ref) < TOL[torch.float16], b
            assert torch.allclose(lse[b:b + 1][finite].double(), ref_lse[finite], rtol=1e-3, atol=1e-3), b
    if not rotary:  # without the left padding the first sequence also sees its first 3 keys: another result
        plain = dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens + s_new, cache_batch_idx=idx,
                                              causal=causal)
        assert not torch.allclose(plain[0].float(), out[0].float(), atol=1e-3)


@interp
@pytest.mark.parametrize("kw,exc,match", [
    (dict(rotary_sin=None), TypeError, r"^rotary_sin: expected a torch.Tensor"),
    (dict(rotary_cos=torch.zeros(40, 8)), ValueError, r"^rotary_cos: expected a 2-D tensor \(seqlen_ro, rotary_dim / 2\) "
     r"of dtype torch.float16"),
    (dict(rotary_cos=torch.zeros(40, 4).half(), rotary_sin=torch.zeros(40, 4).half()), ValueError,
     r"^rotary_cos: rotary_dim = 2 x 4 must be a positive multiple of 16"),
    (dict(rotary_cos=torch.zeros(40, 24).half(), rotary_sin=torch.zeros(40, 24).half()), ValueError,
     r"^rotary_cos: rotary_dim = 2 x 24 must be a positive multiple of 16 and at most head_dim 32"),
    (dict(rotary_cos=torch.zeros(39, 8).half(), rotary_sin=torch.zeros(39, 8).half()), ValueError,
     r"^rotary_cos: expected at least 40 positions"),
])
def test_kvcache_rotary_bad_arguments(kw, exc, match):
    kc, vc, gen = _cache(b=2)
    q = torch.randn(2, 1, 2, 32, generator=gen).half()
    kn, vn = (torch.randn(2, 1, 2, 32, generator=gen).half() for _ in range(2))
    args = dict(rotary_cos=torch.zeros(40, 8).half(), rotary_sin=torch.zeros(40, 8).half())
    args.update(kw)
    with pytest.raises(exc, match=match):
        dhpfa.flash_attn_with_kvcache(q, kc, vc, kn, vn, cache_seqlens=3, **args)


@interp
@pytest.mark.parametrize("rotary", [False, True])
def test_kvcache_paged_against_float64(grouped, rotary):
    """flash_attn_with_kvcache with block_table: the new tokens written into each sequence's pages at its positions
    (other pages unchanged), decode and few-query steps, with rotary embeddings or not, against float64 on the keys
    gathered in order."""
    gen = torch.Generator().manual_seed(53)
    page = 8
    lens = [5, 17, 0]
    kc, vc, bt, _, _ = paged_cache([n + 3 for n in lens], 2, 32, page, gen)
    kc0 = kc.clone()
    q = torch.randn(3, 3, 4, 32, generator=gen).half()
    k_new, v_new = (torch.randn(3, 3, 2, 32, generator=gen).half() for _ in range(2))
    kw = {}
    if rotary:
        angle = torch.rand(bt.shape[1] * page, 8, generator=gen) * 2 * math.pi
        kw = dict(rotary_cos=angle.cos().half(), rotary_sin=angle.sin().half())
    lens_t = torch.tensor(lens, dtype=torch.int32)
    out = dhpfa.flash_attn_with_kvcache(q, kc, vc, k_new, v_new, cache_seqlens=lens_t, block_table=bt, causal=True,
                                        **kw)
    start = lens_t.long()[:, None]
    q_ro = _rotate_ref(q, kw["rotary_cos"], kw["rotary_sin"], start + torch.arange(3), True) if rotary else q
    k_ro = _rotate_ref(k_new, kw["rotary_cos"], kw["rotary_sin"], start + torch.arange(3), True) if rotary else k_new
    touched = set()
    for b in range(3):
        n = lens[b] + 3
        rows = [(int(bt[b, j // page]), j % page) for j in range(n)]
        for i, (p_, r) in enumerate(rows[lens[b]:]):
            touched.add((p_, r))
            assert (kc[p_, r].double() - k_ro[b, i].double()).abs().max() < 1e-2 and torch.equal(vc[p_, r], v_new[b, i])
        keys = torch.stack([kc[p_, r] for p_, r in rows])[None]
        vals = torch.stack([vc[p_, r] for p_, r in rows])[None]
        ref, _ = attention_ref(q_ro[b:b + 1], keys, vals, 1 / math.sqrt(32), n - 3)
        assert rel_err(out[b:b + 1], ref) < TOL[torch.float16], b
    for p_ in range(kc.shape[0]):
        for r in range(page):
            if (p_, r) not in touched:
                assert torch.equal(kc[p_, r], kc0[p_, r]), "only the new positions are written"


@interp
def _bounds_by_torch(lens, leftpad, idx, s_new, sc, paged):
    """The (start, end) rows as flash_attn_with_kvcache formed them before session 34 (seven torch operations), in int64
    (no wrap-around at lengths near 2^31)."""
    ends = torch.clamp(lens.long() + s_new, 0, sc)
    rows = idx.long() if idx is not None else torch.arange(lens.shape[0], device=lens.device)
    start = torch.zeros_like(ends) if paged else rows * sc
    first = start if leftpad is None else start + torch.minimum(torch.clamp(leftpad.long(), min=0), ends)
    return torch.stack((first, start + ends), 1).reshape(-1).to(torch.int32)


def _check_kvcache_bounds(device):
    gen = torch.Generator().manual_seed(34)
    for b in (1, 5, 130, 300):  # 300: three programs of 128
        for paged, pad, with_idx in ((True, False, False), (False, False, False), (False, True, False),
                                     (False, False, True), (False, True, True)):
            sc, s_new = 1000, int(torch.randint(0, 5, (1,), generator=gen))
            lens = torch.randint(-20, 1100, (2 * b,), generator=gen).to(torch.int32)[::2]  # strided: copied first
            lens[0] = 2 ** 31 - 1
            leftpad = torch.randint(-30, 1100, (b + 1,), generator=gen).to(torch.int32)[1:] if pad else None
            idx = torch.randperm(b, generator=gen).to(torch.int32) if with_idx else None
            lens, leftpad, idx = (t.to(device) if t is not None else None for t in (lens, leftpad, idx))
            got = api._kvcache_bounds(lens, leftpad, idx, s_new, sc, paged)
            assert torch.equal(got.cpu(), _bounds_by_torch(lens, leftpad, idx, s_new, sc, paged).cpu()), \
                (b, paged, pad, with_idx)


@interp
def test_kvcache_bounds_match_the_torch_form():
    """api._kvcache_bounds (one launch of triton_fwd.kvcache_bounds, session 34) gives the (start, end) rows the torch
    form gave: lengths past the cache, negative and past the end (clamped), a length of 2^31 - 1, cache_leftpad past the
    end and negative, cache_batch_idx permuted, paged (start 0), new tokens; strided and offset inputs (copied first),
    more sequences than one program takes."""
    _check_kvcache_bounds("cpu")


@pytest.mark.gpu
def test_gpu_kvcache_bounds_match_the_torch_form():
    """As test_kvcache_bounds_match_the_torch_form, on the GPU binary (and its fast launcher from the second call of a
    key on: each case runs twice)."""
    _check_kvcache_bounds("cuda")
    _check_kvcache_bounds("cuda")


def _append_by_torch(kc, vc, k_new, v_new, lens, idx, bt, page):
    """The cache after flash_attn_with_kvcache's writes of the new tokens, position by position (a position outside
    the sequence's capacity, or a page outside the cache, is not written): the reference for triton_fwd.kvcache_append.
    kc, vc: (B_cache, S, H_kv, D), or pages (num_blocks, page, H_kv, D) with bt."""
    kc, vc = kc.clone(), vc.clone()
    cap = bt.shape[1] * page if bt is not None else kc.shape[1]
    for b in range(k_new.shape[0]):
        for s in range(k_new.shape[1]):
            pos = int(lens[b]) + s
            if not 0 <= pos < cap:
                continue
            if bt is not None:
                pg = int(bt[b, pos // page])
                if not 0 <= pg < kc.shape[0]:
                    continue
                kc[pg, pos % page], vc[pg, pos % page] = k_new[b, s], v_new[b, s]
            else:
                r = int(idx[b]) if idx is not None else b
                kc[r, pos], vc[r, pos] = k_new[b, s], v_new[b, s]
    return kc, vc


def _check_kvcache_append(device):
    """api._kvcache_append against _append_by_torch and _bounds_by_torch: every form (paged; cache_leftpad and / or
    cache_batch_idx), positions past the capacity and negative (not written), table entries -1 and past the cache (not
    written), new tokens as strided views (heads and dims transposed), offset by 2 bytes (copied first), several new
    tokens, both dtypes; the whole cache compared (nothing else written)."""
    gen = torch.Generator().manual_seed(35)
    for dt in (torch.float16, torch.bfloat16):
        for paged, pad, with_idx in ((True, False, False), (False, False, False), (False, True, False),
                                     (False, False, True), (False, True, True)):
            b, hk, d, s_new, page = 4, 3, 32, 3, 8
            sc = 24  # unpaged: the cache's seqlen; paged: 3 pages of 8 a sequence
            lens = torch.tensor([0, 5, sc - 2, -2], dtype=torch.int32)  # the last two run past / before the cache
            if paged:
                kc, vc = (torch.randn(13, page, hk, d, generator=gen).to(dt) for _ in range(2))
                bt = torch.randperm(13, generator=gen)[:b * 3].view(b, 3).to(torch.int32)
                bt[1, 0], bt[2, 2] = -1, 13  # not in the cache: nothing written there
            else:
                kc, vc = (torch.randn(b + 1, sc, hk, d, generator=gen).to(dt) for _ in range(2))
                bt = None
            idx = torch.tensor([4, 0, 2, 1], dtype=torch.int32) if with_idx else None
            leftpad = torch.randint(-2, 30, (b,), generator=gen).to(torch.int32) if pad else None
            k_new = torch.randn(b, s_new, d, hk, generator=gen).to(dt).transpose(2, 3)  # strided (B, S_new, H_kv, D)
            v_new = torch.randn(b * s_new * hk * d + 1, generator=gen).to(dt)[1:].view(b, s_new, hk, d)  # offset
            ref_k, ref_v = _append_by_torch(kc, vc, k_new, v_new, lens, idx, bt, page)
            args = [t.to(device) if t is not None else None for t in (lens, leftpad, idx, k_new, v_new, kc, vc, bt)]
            lens_d, pad_d, idx_d, kn_d, vn_d, kc_d, vc_d, bt_d = args
            rows = kc_d.shape[0] * kc_d.shape[1]
            cap = 3 * page if paged else sc
            for _ in range(2):  # (the second call of a key: the fast launcher on the GPU)
                got, _ = api._kvcache_append(lens_d, pad_d, idx_d, kn_d, vn_d, kc_d.view(rows, hk, d),
                                          vc_d.view(rows, hk, d), bt_d, cap, page if paged else 1, paged)
                case = (dt, paged, pad, with_idx)
                assert torch.equal(kc_d.cpu(), ref_k) and torch.equal(vc_d.cpu(), ref_v), case
                assert torch.equal(got.cpu(), _bounds_by_torch(lens, leftpad, idx, s_new, cap, paged)), case


@interp
def test_kvcache_append_matches_torch_writes():
    """api._kvcache_append (the new tokens' writes and the key rows in one launch of triton_fwd.kvcache_append,
    session 35) writes what the position-by-position reference writes, and nothing else (_check_kvcache_append)."""
    _check_kvcache_append("cpu")


@pytest.mark.gpu
def test_gpu_kvcache_append_matches_torch_writes():
    """As test_kvcache_append_matches_torch_writes on the GPU binary (and its fast launcher); then the launched binary
    is the audited one."""
    from dhpfa.audit import compile as C
    from dhpfa.kernels import triton_fwd
    _check_kvcache_append("cuda")
    for name, fn, args, kwargs, _ in triton_fwd.audited_kernels():
        if name.startswith("kvcache_append"):
            launched = fn[(1,)](*(a.cuda() if isinstance(a, torch.Tensor) else a for a in args), **kwargs)
            assert launched.asm["cubin"] == C.compile_offline(fn, args, kwargs).cubin, name


@interp
def test_kvcache_append_and_torch_writes_give_the_same_call(monkeypatch):
    """flash_attn_with_kvcache with new tokens: the same cache and the same bits whether the new tokens are written
    by kvcache_append or by torch indexing (api.KVCACHE_APPEND_FUSED), contiguous and paged."""
    kc, vc, gen = _cache(b=2, sc=32)
    q = torch.randn(2, 2, 4, 32, generator=gen).half()
    k_new, v_new = (torch.randn(2, 2, 2, 32, generator=gen).half() for _ in range(2))
    lens = torch.tensor([3, 17], dtype=torch.int32)
    bt = torch.tensor([[3, 1], [0, 2]], dtype=torch.int32)
    kp, vp = (t.view(4, 16, 2, 32).clone() for t in (kc, vc))
    results = []
    for fused in (True, False):
        monkeypatch.setattr(api, "KVCACHE_APPEND_FUSED", fused)
        c = [t.clone() for t in (kc, vc, kp, vp)]
        out = dhpfa.flash_attn_with_kvcache(q, c[0], c[1], k_new, v_new, cache_seqlens=lens, causal=True)
        outp = dhpfa.flash_attn_with_kvcache(q, c[2], c[3], k_new, v_new, cache_seqlens=lens, block_table=bt,
                                             causal=True)
        results.append((out, outp, *c))
    assert all(torch.equal(a, b) for a, b in zip(*results))


def _check_rotary_fused(monkeypatch, device, dtype):
    """flash_attn_with_kvcache with rotary embeddings computed in kvcache_append's launch (api.KVCACHE_ROTARY_FUSED)
    and by torch operations (_rotary_qk): the same output and lse bits and the same cache. Halves and interleaved
    pairs; per-row positions (causal) and first-position ones (no mask); rotary_dim below and equal to the head dim;
    more queries than new tokens and fewer; cache_batch_idx, cache_leftpad, a paged cache; q a strided view."""
    gen = torch.Generator().manual_seed(37)
    d, hk, h, sc = 64, 2, 4, 48
    cases = [(True, True, 16, 1, 1, {}), (False, False, 32, 3, 2, {}), (True, False, 64, 2, 3, dict(idx=True)),
             (False, True, 16, 2, 2, dict(leftpad=True)), (True, True, 32, 1, 2, dict(paged=True)),
             (False, True, 48, 4, 4, dict(strided=True))]
    for interleaved, causal, rot_dim, sq, s_new, opts in cases:
        kc, vc = (torch.randn(3, sc, hk, d, generator=gen).to(device, dtype) for _ in range(2))
        q = torch.randn(3, sq, h, d, generator=gen).to(device, dtype)
        if opts.get("strided"):
            q = torch.randn(3, sq, d, h, generator=gen).to(device, dtype).transpose(2, 3)
        kn, vn = (torch.randn(3, s_new, hk, d, generator=gen).to(device, dtype) for _ in range(2))
        angle = torch.rand(sc, rot_dim // 2, generator=gen) * 6.3
        cos, sin = (f(angle).to(device, dtype) for f in (torch.cos, torch.sin))
        kw = dict(cache_seqlens=torch.tensor([3, 20, 0], dtype=torch.int32, device=device), causal=causal,
                  rotary_cos=cos, rotary_sin=sin, rotary_interleaved=interleaved, return_softmax_lse=True)
        if opts.get("idx"):
            kw["cache_batch_idx"] = torch.tensor([1, 2, 0], dtype=torch.int32, device=device)
        if opts.get("leftpad"):
            kw["cache_leftpad"] = torch.tensor([1, 5, 0], dtype=torch.int32, device=device)
        if opts.get("paged"):
            kw["block_table"] = torch.tensor([[5, 0, 2], [1, 4, 3], [7, 8, 6]], dtype=torch.int32, device=device)
            kc, vc = (t.reshape(9, 16, hk, d) for t in (kc, vc))
        res = []
        for fused in (True, False):
            monkeypatch.setattr(api, "KVCACHE_ROTARY_FUSED", fused)
            c = [t.clone() for t in (kc, vc)]
            for _ in range(2):  # (the second call: the plan, on the GPU)
                o, lse = dhpfa.flash_attn_with_kvcache(q, c[0], c[1], kn, vn, **kw)
            res.append((o, lse, *c))
        case = (interleaved, causal, rot_dim, sq, s_new, opts)
        assert all(torch.equal(a, b) for a, b in zip(*res)), case


@interp
def test_kvcache_rotary_in_the_append_launch_matches_torch(monkeypatch):
    """_check_rotary_fused on the interpreter (fp16)."""
    _check_rotary_fused(monkeypatch, "cpu", torch.float16)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_gpu_kvcache_rotary_in_the_append_launch_matches_torch(monkeypatch, dtype):
    """_check_rotary_fused on the GPU binaries (compiled without FMA contraction: the products round as torch's)."""
    _check_rotary_fused(monkeypatch, "cuda", dtype)


def test_kvcache_signature():
    """api._kvcache_signature: a key for every plain call (rotary halves or pairs, int or tensor lengths, None
    arguments), distinct where metadata or scalars differ, None where an argument is not of a plain type."""
    q, kc = torch.empty(2, 1, 4, 64), torch.empty(2, 32, 2, 64)
    lens, cos = torch.empty(2, dtype=torch.int32), torch.empty(32, 8)

    def sig(**kw):
        a = dict(q=q, k_cache=kc, v_cache=kc, k=None, v=None, rotary_cos=None, rotary_sin=None, cache_seqlens=lens,
                 cache_batch_idx=None, cache_leftpad=None, block_table=None, softmax_scale=None, causal=True,
                 window_size=(-1, -1), softcap=0.0, alibi_slopes=None, return_softmax_lse=False)
        a.update(kw)
        return api._kvcache_signature(**a)
    plain = [sig(), sig(rotary_cos=cos, rotary_sin=cos, rotary_interleaved=False), sig(rotary_cos=cos, rotary_sin=cos),
             sig(cache_seqlens=5), sig(cache_seqlens=6), sig(cache_seqlens=None), sig(causal=False), sig(softcap=30.0),
             sig(q=torch.empty(2, 1, 4, 128)[..., :64]), sig(softmax_scale=0.1),
             sig(return_softmax_lse=True), sig(window_size=(10, 0)), sig(num_splits=3)]
    assert all(p is not None for p in plain) and len(set(plain)) == len(plain)
    assert sig() == sig(q=torch.empty(2, 1, 4, 64))
    for bad in (dict(rotary_interleaved=1, rotary_cos=cos, rotary_sin=cos), dict(causal=1), dict(cache_seqlens=[5, 6]),
                dict(window_size=[-1, -1]), dict(q=q.numpy()), dict(alibi_slopes=torch.empty(4))):
        assert sig(**bad) is None, bad


def test_kvcache_strided_cache_is_refused():
    kc, vc, gen = _cache(b=2, sc=40)
    q = torch.randn(2, 1, 2, 32, generator=gen).half()
    with pytest.raises(ValueError, match=r"^k_cache: the kernel reads the cache as \(batch x seqlen\) rows"):
        dhpfa.flash_attn_with_kvcache(q, kc[:, :32], vc[:, :32])
    with pytest.raises(ValueError, match=r"^v_cache: expected shape"):
        dhpfa.flash_attn_with_kvcache(q, kc, vc.float())


def test_loosen_window():
    """api._loosen_window: a side that hides nothing at these lengths becomes unbounded (left >= sk - 1, right >=
    sq - 1), (-1, 0) without causal is causal; one key less and the window binds."""
    loosen = api._loosen_window
    assert loosen(True, (9, -1), False, 5, 10) == (False, (-1, -1), False)
    assert loosen(True, (8, -1), False, 5, 10) == (True, (8, -1), False)
    assert loosen(True, (-1, 4), False, 5, 10) == (False, (-1, -1), False)
    assert loosen(True, (-1, 3), False, 5, 10) == (True, (-1, 3), False)
    assert loosen(True, (-1, 0), False, 5, 10) == (False, (-1, 0), True)
    assert loosen(True, (9, 0), True, 5, 10) == (False, (-1, 0), True)
    assert loosen(True, (8, 0), True, 5, 10) == (True, (8, 0), True)
    assert loosen(True, (0, 0), False, 1, 1) == (False, (-1, -1), False)


@interp
def test_window_that_hides_nothing_runs_the_plain_call(monkeypatch):
    """flash_attn_func with a window wider than the shapes gives the plain call's bits (the dense kernels), (-1, 0)
    those of causal=True; a window one key narrower takes the varlen kernel and matches float64."""
    gen = torch.Generator().manual_seed(44)
    q, k, v = (torch.randn(2, n, 2, 32, generator=gen).half() for n in (23, 30, 30))
    varlen = []
    dense_as_varlen = api._dense_as_varlen
    monkeypatch.setattr(api, "_dense_as_varlen", lambda *a: varlen.append(1) or dense_as_varlen(*a))
    plain = dhpfa.flash_attn_func(q, k, v)
    assert torch.equal(dhpfa.flash_attn_func(q, k, v, window_size=(29, 22)), plain)
    assert torch.equal(dhpfa.flash_attn_func(q, k, v, window_size=(40, -1)), plain)
    assert torch.equal(dhpfa.flash_attn_func(q, k, v, window_size=(-1, 0)), dhpfa.flash_attn_func(q, k, v, causal=True))
    assert torch.equal(dhpfa.flash_attn_func(q, k, v, causal=True, window_size=(29, 5)),
                       dhpfa.flash_attn_func(q, k, v, causal=True))
    assert not varlen
    out = dhpfa.flash_attn_func(q, k, v, window_size=(28, 22))
    assert varlen == [1]
    ref, _ = attention_ref(q, k, v, 1 / math.sqrt(32), None, (28, 22))
    assert rel_err(out, ref) < TOL[torch.float16]


@interp
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("lens,s_new,sq", [(30, 40, 40), (None, 0, 36), (0, 36, 36), (10, 0, 34)])
def test_kvcache_prefill_chunk_runs_dense(dense_from_33, dense_calls, monkeypatch, causal, lens, s_new, sq):
    """An int cache_seqlens (or None), no cache_batch_idx, and a call of many queries (variants.varlen_dense): the
    new tokens appended, then flash_attn_func on the cache's first rows; against float64 and the varlen kernel's
    result (the path off). Causal calls with fewer keys than queries (rows that see no key) included."""
    kc, vc, gen = _cache(b=2, sc=80, seed=45)
    q = (torch.randn(2, sq, 4, 32, generator=gen) * 2).half()
    k_new, v_new = (torch.randn(2, s_new, 2, 32, generator=gen).half() for _ in range(2)) if s_new else (None, None)
    out, lse = dhpfa.flash_attn_with_kvcache(q, kc, vc, k_new, v_new, cache_seqlens=lens, causal=causal,
                                             return_softmax_lse=True)
    assert dense_calls == [1] and out.shape == q.shape and lse.shape == (2, 4, sq)
    n = min((80 if lens is None else lens) + s_new, 80)
    if s_new:
        assert torch.equal(kc[:, lens:n], k_new) and torch.equal(vc[:, lens:n], v_new)
    ref, ref_lse = attention_ref(q, kc[:, :n], vc[:, :n], 1 / math.sqrt(32), n - sq if causal else None)
    finite = torch.isfinite(ref_lse)
    assert rel_err(out, ref) < TOL[torch.float16] and torch.equal(torch.isfinite(lse), finite)
    assert torch.allclose(lse[finite].double(), ref_lse[finite], rtol=1e-3, atol=1e-3)
    monkeypatch.setattr(variants, "VARLEN_DENSE_MIN_Q", None)
    monkeypatch.setattr(variants, "KVCACHE_DENSE_MAX_Q", None)  # (these calls have at most 64 queries)
    out2 = dhpfa.flash_attn_with_kvcache(q, kc, vc, k_new, v_new, cache_seqlens=lens, causal=causal)
    assert dense_calls == [1] and rel_err(out2, out.double()) < TOL[torch.float16]


def test_kvcache_dense_rule():
    """variants.kvcache_dense: prefill chunks as varlen_dense; at most KVCACHE_DENSE_MAX_Q queries without num_splits,
    but not one sequence of more than KVCACHE_DENSE_ONE_SEQ_MAX_K keys (session 37's measurements)."""
    rule = variants.kvcache_dense
    assert rule(128, 1, 0, 8, 4096) and rule(64, 1, 0, 8, 4096) and rule(256, 64, 0, 32, 2048)
    assert not rule(128, 1, 0, 8, 4096, graph=False), "eager decode steps: the varlen route's host path"
    assert rule(128, 96, 0, 8, 4096, graph=False), "prefill chunks: the dense route eagerly too"
    assert rule(128, 1, 0, 1, 4096) and rule(128, 1, 0, 1, variants.KVCACHE_DENSE_ONE_SEQ_MAX_K)
    assert not rule(128, 1, 0, 1, variants.KVCACHE_DENSE_ONE_SEQ_MAX_K + 1)
    assert not rule(128, 1, 3, 8, 4096), "num_splits > 0: the varlen kernel's parts"
    assert not rule(64, 65, 0, 8, 4096), "65-95 queries: not measured, the varlen route as before"
    assert rule(128, 96, 0, 1, 10 ** 5), "prefill chunks: varlen_dense whatever the batch"


@interp
@pytest.mark.parametrize("sq,s_new,causal,hk", [(1, 0, False, 2), (1, 1, True, 2), (4, 4, True, 2), (2, 0, True, 4)])
def test_kvcache_decode_runs_dense(dense_calls, monkeypatch, sq, s_new, causal, hk):
    """Decode steps and drafts against equal caches (an int cache_seqlens) run flash_attn_func on the cache's first rows
    (variants.kvcache_dense), new tokens appended first; against float64. One sequence longer than
    KVCACHE_DENSE_ONE_SEQ_MAX_K keys, num_splits > 0, and a tensor cache_seqlens take the varlen kernel, with the same
    result to rounding. (The interpreter never captures a graph: KVCACHE_DENSE_EAGER stands in for it.)"""
    monkeypatch.setattr(api, "_PLANS", {})
    monkeypatch.setattr(variants, "KVCACHE_DENSE_EAGER", True)
    kc, vc, gen = _cache(b=2, sc=80, hk=hk, seed=46)
    q = (torch.randn(2, sq, 4, 32, generator=gen) * 2).half()
    k_new, v_new = (torch.randn(2, s_new, hk, 32, generator=gen).half() for _ in range(2)) if s_new else (None, None)
    lens = 50
    out = dhpfa.flash_attn_with_kvcache(q, kc, vc, k_new, v_new, cache_seqlens=lens, causal=causal)
    n = lens + s_new
    ref, _ = attention_ref(q, kc[:, :n], vc[:, :n], 1 / math.sqrt(32), n - sq if causal else None)
    assert dense_calls == [1] and rel_err(out, ref) < TOL[torch.float16]
    if s_new:
        assert torch.equal(kc[:, lens:n], k_new) and torch.equal(vc[:, lens:n], v_new)
    # the varlen kernel: num_splits, a tensor of lengths, one long sequence (the cache holds the new tokens already:
    # the calls below attend to the same n keys without appending)
    outs = [dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=n, causal=causal, num_splits=2),
            dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=torch.full((2,), n, dtype=torch.int32),
                                          causal=causal)]
    monkeypatch.setattr(variants, "KVCACHE_DENSE_ONE_SEQ_MAX_K", n - 1)
    one = dhpfa.flash_attn_with_kvcache(q[:1], kc[:1], vc[:1], cache_seqlens=n, causal=causal)
    assert dense_calls == [1], "none of these ran the dense route"
    assert all(rel_err(o, ref) < TOL[torch.float16] for o in outs) and rel_err(one, ref[:1]) < TOL[torch.float16]
    monkeypatch.setattr(variants, "KVCACHE_DENSE_ONE_SEQ_MAX_K", n)
    dhpfa.flash_attn_with_kvcache(q[:1], kc[:1], vc[:1], cache_seqlens=n, causal=causal)
    assert dense_calls == [1, 1]


@pytest.mark.gpu
@pytest.mark.parametrize("s_new", [0, 1])
def test_gpu_kvcache_graph_takes_the_dense_route(dense_calls, monkeypatch, s_new):
    """A decode step against equal caches (an int cache_seqlens) runs the varlen route eagerly (session 67: or the
    swap decode kernels' KV-cache builds, where decode_kv_choice gives them; not flash_attn_func) and the dense route
    (flash_attn_func) inside a CUDA graph's capture (variants.kvcache_dense, session 37), even after an eager call kept
    its plan for the same signature; the replayed graph's output against float64 (and the appended token in place)."""
    monkeypatch.setattr(api, "_PLANS", {})
    gen = torch.Generator().manual_seed(37 + s_new)
    b, hk, h, d, sc, lens = 4, 2, 8, 128, 3000, 2500
    kc, vc = (torch.randn(b, sc, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
    q = torch.randn(b, 1, h, d, generator=gen).to("cuda", torch.bfloat16)
    new = [torch.randn(b, s_new, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2)] if s_new \
        else [None, None]
    for _ in range(2):  # eager, the second call through its kept plan
        eager = dhpfa.flash_attn_with_kvcache(q, kc, vc, *new, cache_seqlens=lens)
    assert dense_calls == []
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        dhpfa.flash_attn_with_kvcache(q, kc, vc, *new, cache_seqlens=lens)  # warm-up on the side stream (eager)
    torch.cuda.current_stream().wait_stream(s)
    assert dense_calls == []
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = dhpfa.flash_attn_with_kvcache(q, kc, vc, *new, cache_seqlens=lens)
    assert dense_calls == [1]
    out.fill_(float("nan"))
    g.replay()
    torch.cuda.synchronize()
    n = lens + s_new
    if s_new:
        assert torch.equal(kc[:, lens:n], new[0]) and torch.equal(vc[:, lens:n], new[1])
    ref, _ = attention_ref(q, kc[:, :n], vc[:, :n], d ** -0.5)
    assert rel_err(out, ref) < TOL[torch.bfloat16] and rel_err(eager, ref) < TOL[torch.bfloat16]


@pytest.mark.gpu
@pytest.mark.parametrize("d", [64, 128])
def test_gpu_kvcache_decode_loop(d):
    """Ten decode steps appending one token each (the API's plan and split rule), against float64 every step."""
    gen = torch.Generator().manual_seed(31)
    b, hk, h, sc = 4, 2, 8, 3000
    kc, vc = (torch.randn(b, sc, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
    lens = torch.tensor([100, 2000, 1, 2500], dtype=torch.int32, device="cuda")
    for step in range(10):
        q = torch.randn(b, 1, h, d, generator=gen).to("cuda", torch.bfloat16)
        kn, vn = (torch.randn(b, 1, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
        out = dhpfa.flash_attn_with_kvcache(q, kc, vc, kn, vn, cache_seqlens=lens, causal=True)
        for i in range(b):
            n = int(lens[i]) + 1
            ref, _ = attention_ref(q[i:i + 1], kc[i:i + 1, :n], vc[i:i + 1, :n], d ** -0.5, n - 1)
            assert rel_err(out[i:i + 1], ref) < 1e-2, (step, i)
        lens += 1


_PLANNED_CASES = [  # (label, batch, queries, new tokens, D, options): flash_attn_with_kvcache's forms
    ("decode", 4, 1, 1, 128, {}),
    ("decode, lse", 4, 1, 1, 64, dict(return_softmax_lse=True)),
    ("no new tokens", 4, 1, 0, 128, {}),
    ("drafts", 3, 4, 4, 128, {}),
    ("int lengths", 4, 1, 1, 128, dict(int_lens=True)),
    ("cache_batch_idx", 4, 1, 1, 128, dict(idx=True)),
    ("cache_leftpad", 4, 1, 1, 64, dict(leftpad=True)),
    ("paged", 4, 1, 1, 128, dict(paged=True)),
    ("paged, window, soft-cap", 4, 1, 1, 128, dict(paged=True, window_size=(700, 0), softcap=30.0)),
    ("window", 4, 1, 2, 256, dict(window_size=(300, 0))),
]


@pytest.mark.gpu
@pytest.mark.parametrize("case", _PLANNED_CASES, ids=[c[0] for c in _PLANNED_CASES])
def test_gpu_kvcache_plan_matches_the_checked_call(monkeypatch, case):
    """flash_attn_with_kvcache's call plan (api._kvcache_planned, session 35: a repeated signature skips the checks and
    launches kvcache_append / kvcache_bounds and the varlen kernel through kept launchers) against the checked call
    (the plan dropped before each call): the same output bits, lse, cache and new-token writes over five steps of
    every form; the plan is taken from the second call on; a misaligned q falls back to the checked path (and its
    result is the same); against float64 at the last step."""
    label, b, sq, s_new, d, opts = case
    opts = dict(opts)
    gen = torch.Generator().manual_seed(35)
    hk, h, sc, page = 2, 8, 1024, 256
    caches = [(torch.randn(b, sc, hk, d, generator=gen) * 2).to("cuda", torch.bfloat16) for _ in range(2)]
    lens0 = torch.tensor([100, 700, 1, 900][:b], dtype=torch.int32)
    kw = dict(causal=True, window_size=opts.pop("window_size", (-1, -1)), softcap=opts.pop("softcap", 0.0),
              return_softmax_lse=opts.pop("return_softmax_lse", False))
    paged, int_lens = opts.pop("paged", False), opts.pop("int_lens", False)
    if int_lens:  # decode steps of equal caches run the dense route since session 37 (variants.kvcache_dense): off here,
        # so that the varlen route's plan with an int cache_seqlens is what runs (windows and soft-caps take it so)
        monkeypatch.setattr(variants, "KVCACHE_DENSE_MAX_Q", None)
    if opts.pop("idx", False):
        kw["cache_batch_idx"] = torch.tensor([2, 0, 3, 1][:b], dtype=torch.int32, device="cuda")
    if opts.pop("leftpad", False):
        kw["cache_leftpad"] = torch.tensor([5, 0, 0, 300][:b], dtype=torch.int32, device="cuda")
    if paged:
        perm = torch.randperm(b * sc // page, generator=gen)
        kw["block_table"] = perm.view(b, sc // page).to("cuda", torch.int32)
        caches = [c.reshape(-1, page, hk, d)[perm.argsort().to("cuda")].contiguous() for c in caches]
    assert not opts
    planned = []
    real = api._kvcache_planned
    monkeypatch.setattr(api, "_kvcache_planned", lambda *a: planned.append(1) or real(*a))
    both = [[c.clone() for c in caches] for _ in range(2)]
    lens = {True: lens0.to("cuda"), False: lens0.to("cuda")}
    for step in range(5):
        q = torch.randn(b, sq, h, d, generator=gen).to("cuda", torch.bfloat16)
        new = [torch.randn(b, s_new, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2)] if s_new \
            else [None, None]
        res = {}
        for kept, (kc, vc) in zip((True, False), both):
            if not kept:
                api._PLANS.clear()
            seqlens = int(lens0[0]) if int_lens else lens[kept]  # (an int is in the signature: the same each step)
            res[kept] = dhpfa.flash_attn_with_kvcache(q, kc, vc, *new, cache_seqlens=seqlens, **kw)
        assert all(torch.equal(x, y) for x, y in zip(*res.values())) if kw["return_softmax_lse"] else \
            torch.equal(res[True], res[False]), (label, step)
        assert all(torch.equal(x, y) for x, y in zip(*both)), (label, step)
        if not int_lens:
            for t in lens.values():
                t += s_new
    assert len(planned) >= 4, planned  # (the first call and every call after a clear take the checks)
    steps = len(planned)
    odd = torch.empty(q.numel() + 1, dtype=q.dtype, device="cuda")[1:].view(q.shape)
    odd.copy_(q)
    seqlens = int(lens0[0]) if int_lens else lens[True]
    with pytest.raises(ValueError, match="^q: data pointer must be 16-byte aligned"):  # the checked path's error
        dhpfa.flash_attn_with_kvcache(odd, *[c.clone() for c in both[1]], *new, cache_seqlens=seqlens, **kw)
    assert len(planned) == steps + 1
    # float64 at the last step: every sequence against its keys (unpaged forms, no window)
    if not paged and not int_lens and "cache_leftpad" not in kw and kw["window_size"] == (-1, -1):
        kc, vc = both[0]
        out = res[True][0] if kw["return_softmax_lse"] else res[True]
        rows = kw.get("cache_batch_idx", torch.arange(b, device="cuda"))
        for i in range(b):
            n, r = int(lens[True][i]), int(rows[i])
            ref64, _ = attention_ref(q[i:i + 1], kc[r:r + 1, :n], vc[r:r + 1, :n], d ** -0.5, n - sq)
            assert rel_err(out[i:i + 1], ref64) < 1e-2, (label, i)


@pytest.mark.gpu
@pytest.mark.parametrize("paged", [False, True])
def test_gpu_kvcache_plan_in_cuda_graph(monkeypatch, paged):
    """A decode step captured in a CUDA graph after its plan was kept (the planned path's launches and scratch memory
    under capture), replayed for three steps with new q, new tokens and lengths copied into the captured buffers: every
    replay's output and cache equal an eager checked call's on a copy of the cache."""
    gen = torch.Generator().manual_seed(36)
    b, hk, h, d, sc, page = 4, 2, 8, 128, 1024, 256
    kc, vc = (torch.randn(b, sc, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
    kw = dict(causal=True)
    if paged:
        kw["block_table"] = torch.randperm(b * sc // page, generator=gen).view(b, -1).to("cuda", torch.int32)
        kc, vc = (t.view(-1, page, hk, d) for t in (kc, vc))
    lens = torch.tensor([10, 500, 1, 900], dtype=torch.int32, device="cuda")
    q, kn, vn = (torch.randn(b, 1, n, d, generator=gen).to("cuda", torch.bfloat16) for n in (h, hk, hk))
    planned = []
    real = api._kvcache_planned
    monkeypatch.setattr(api, "_kvcache_planned", lambda *a: planned.append(1) or real(*a))
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up: the launchers made, the plan kept, then taken
        for _ in range(3):
            dhpfa.flash_attn_with_kvcache(q, kc.clone(), vc.clone(), kn, vn, cache_seqlens=lens.clone(), **kw)
    torch.cuda.current_stream().wait_stream(side)
    before = len(planned)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = dhpfa.flash_attn_with_kvcache(q, kc, vc, kn, vn, cache_seqlens=lens, **kw)
    assert before >= 1 and len(planned) == before + 1, planned
    for step in range(3):
        for t in (q, kn, vn):
            t.copy_(torch.randn(t.shape, generator=gen).to("cuda", torch.bfloat16))
        kc0, vc0, lens0 = kc.clone(), vc.clone(), lens.clone()
        graph.replay()
        api._PLANS.clear()
        ref = dhpfa.flash_attn_with_kvcache(q, kc0, vc0, kn, vn, cache_seqlens=lens0, **kw)
        torch.cuda.synchronize()
        assert torch.equal(out, ref) and torch.equal(kc, kc0) and torch.equal(vc, vc0), step
        lens += 1


@pytest.mark.gpu
@pytest.mark.parametrize("d", [128, 256])
@pytest.mark.parametrize("window", [(-1, -1), (5000, 0)])
def test_gpu_kvcache_prefill_chunks(d, window):
    """A prompt written in chunks of 256 tokens into an empty cache (an int cache_seqlens: the dense path, variants.
    varlen_dense; the window (5000, 0) hides nothing at these lengths, so it takes the same path), causal, against
    float64 every chunk."""
    gen = torch.Generator().manual_seed(46)
    b, hk, h, sc, chunk = 2, 2, 8, 1536, 256
    kc, vc = (torch.full((b, sc, hk, d), float("nan")).to("cuda", torch.bfloat16) for _ in range(2))
    for step in range(sc // chunk):
        q = torch.randn(b, chunk, h, d, generator=gen).to("cuda", torch.bfloat16)
        kn, vn = (torch.randn(b, chunk, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
        n0 = step * chunk
        out = dhpfa.flash_attn_with_kvcache(q, kc, vc, kn, vn, cache_seqlens=n0, causal=True, window_size=window)
        ref, _ = attention_ref(q, kc[:, :n0 + chunk], vc[:, :n0 + chunk], d ** -0.5, n0)
        assert rel_err(out, ref) < 1e-2, step


@pytest.mark.gpu
@pytest.mark.parametrize("interleaved", [True, False])
def test_gpu_kvcache_rotary_decode_steps(interleaved):
    """Decode steps with rotary embeddings (GPT-J and GPT-NeoX pairs, rotary_dim 64 of 128) against float64."""
    gen = torch.Generator().manual_seed(48)
    b, hk, h, d, sc = 3, 2, 8, 128, 600
    kc, vc = (torch.randn(b, sc, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
    angle = torch.rand(sc, 32, generator=gen) * 2 * math.pi
    cos, sin = (f(angle).to("cuda", torch.bfloat16) for f in (torch.cos, torch.sin))
    lens = torch.tensor([10, 300, 0], dtype=torch.int32, device="cuda")
    for _ in range(3):
        q = torch.randn(b, 1, h, d, generator=gen).to("cuda", torch.bfloat16)
        kn, vn = (torch.randn(b, 1, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
        out = dhpfa.flash_attn_with_kvcache(q, kc, vc, kn, vn, rotary_cos=cos, rotary_sin=sin, cache_seqlens=lens,
                                            causal=True, rotary_interleaved=interleaved)
        pos = lens.long()[:, None].cpu()
        q_ro = _rotate_ref(q.cpu(), cos.cpu(), sin.cpu(), pos, interleaved)
        for i in range(b):
            n = int(lens[i]) + 1
            ref, _ = attention_ref(q_ro[i:i + 1], kc[i:i + 1, :n].cpu(), vc[i:i + 1, :n].cpu(), d ** -0.5, n - 1)
            assert rel_err(out[i:i + 1].cpu(), ref) < 1e-2, i
        lens += 1


@pytest.mark.gpu
@pytest.mark.parametrize("sq", [1, 40])
def test_gpu_kvcache_leftpad(sq):
    """cache_leftpad on the GPU binaries: decode steps (grouped heads, keys split across programs) and a 40-query chunk
    over left-padded caches of 1-4096 keys, against float64 on each sequence's keys leftpad[b] .. lens[b]."""
    gen = torch.Generator().manual_seed(49)
    b, hk, h, d, sc = 4, 8, 32, 128, 4096
    kc, vc = (torch.randn(b, sc, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
    lens = torch.tensor([3000, 100, 4000, 40], dtype=torch.int32, device="cuda")
    leftpad = torch.tensor([1000, 0, 3990, 40], dtype=torch.int32, device="cuda")
    q = torch.randn(b, sq, h, d, generator=gen).to("cuda", torch.bfloat16)
    out = dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, cache_leftpad=leftpad, causal=True)
    for i in range(b):
        lo, n = int(leftpad[i]), int(lens[i])
        ref, ref_lse = attention_ref(q[i:i + 1].cpu(), kc[i:i + 1, lo:n].cpu(), vc[i:i + 1, lo:n].cpu(), d ** -0.5,
                                     (n - lo) - sq)
        vis = torch.isfinite(ref_lse[0, 0])  # queries with a visible key (none in the last sequence: no keys)
        if vis.any():
            assert rel_err(out[i:i + 1, vis.cuda()].cpu(), ref[:, vis]) < 1e-2, i
        assert (out[i, ~vis.cuda()] == 0).all(), i  # rows without a visible key: zeros, as flash-attn's


@pytest.mark.gpu
@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("page", [16, 256])
def test_gpu_paged_cache_decode_and_prefill(d, page, monkeypatch):
    """Paged caches on the GPU binaries: decode steps and a prefill chunk through flash_attn_with_kvcache(block_table)
    and flash_attn_varlen_func(block_table), grouped heads, lengths split across programs by the API's rule, against
    float64; then the plan's fast launcher (the block table passed by name) on a second call, bitwise equal. Pages of
    256 take the per-block builds, pages of 16 the per-key ones; the launched paged binary is the audited one."""
    monkeypatch.setattr(api, "_PLANS", {})  # this test's plans only
    gen = torch.Generator().manual_seed(54)
    lens_k = [3000, 1, 700, 2048]
    kc, vc, bt, keys, vals = paged_cache(lens_k, 2, d, page, gen)
    kc, vc, bt = kc.to("cuda", torch.bfloat16), vc.to("cuda", torch.bfloat16), bt.to("cuda")
    for lens_q in ([1, 1, 1, 1], [1, 200, 4, 64]):
        q = torch.randn(sum(lens_q), 8, d, generator=gen).to("cuda", torch.bfloat16)
        cu_q, cu_k = offsets(lens_q, "cuda"), offsets(lens_k, "cuda")
        out, lse = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), 3000, causal=True, block_table=bt,
                                                return_lse=True)
        check_sequences(out, lse, q, torch.cat(keys).to("cuda", torch.bfloat16),
                        torch.cat(vals).to("cuda", torch.bfloat16), cu_q, cu_k, d ** -0.5, True, 1e-2)
        again = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), 3000, causal=True, block_table=bt)
        assert torch.equal(again, out)
    plans = [p for p in api._PLANS.values() if isinstance(p, api._VarlenPlan) and "_paged" in p.variant.name
             and p.variant.kernel != variants.VARLEN_SM90_PAGED_KERNEL]  # (the Hopper paged build: its own test)
    assert plans and all(p.launcher is not None for p in plans), "the paged plans keep a fast launcher"
    blocks = page % variants.VARLEN[d].block_n == 0  # per block at 256, per key at 16 (blocks of 32 or 64 keys)
    assert all(p.variant.kernel.endswith("_blocks") == blocks for p in plans), [p.variant.name for p in plans]
    # the paged binary launched on these tensors is the audited one (compiled offline on the audit's placeholders)
    from dhpfa.audit import compile as C, variant_launch
    from dhpfa.kernels import dispatch
    v_ = variants.varlen_variant(torch.bfloat16, d, True, paged=True, page_blocks=blocks)
    rows = kc.view(-1, 2, d)
    grid, args, kwargs = dispatch.varlen_launch_args(v_, q, rows, rows, torch.empty_like(q),
                                                     torch.empty(8, q.shape[0], device="cuda"), cu_q, cu_k,
                                                     max(lens_q), 0.1, paged=(bt, page, kc.shape[0]))
    launched = dispatch.kernel_fn(v_.kernel)[grid](*args, **kwargs)
    assert launched.asm["cubin"] == C.compile_offline(*variant_launch(v_)).cubin


@pytest.mark.gpu
@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("page", [16, 256])
@pytest.mark.parametrize("window,cap", [((100, 0), 0.0), ((-1, -1), 30.0), ((300, 0), 20.0)])
def test_gpu_paged_grouped_builds_with_window_or_softcap(d, page, window, cap, monkeypatch):
    """The portable kernel's grouped paged builds with a window and / or soft-cap inside (session 34): decode steps and
    5-query drafts of 8 heads over 2 (split across programs by the API's rule: few sequences), pages of 256 (per block)
    and 16 (per key) in a random order, no page copy (api._gather_pages never called); against float64, bitwise equal
    to the same call on the keys in contiguous rows (the grouped unpaged builds), and the launched paged binary is the
    audited one."""
    monkeypatch.setattr(api, "_PLANS", {})
    gathered, gather = [], api._gather_pages
    monkeypatch.setattr(api, "_gather_pages", lambda *a, **kw: gathered.append(1) or gather(*a, **kw))
    gen = torch.Generator().manual_seed(57 + d + page)
    lens_k = [3000, 1, 700, 2048]
    kc, vc, bt, keys, vals = paged_cache(lens_k, 2, d, page, gen)
    kc, vc, bt = kc.to("cuda", torch.bfloat16), vc.to("cuda", torch.bfloat16), bt.to("cuda")
    k_cat, v_cat = torch.cat(keys).to("cuda", torch.bfloat16), torch.cat(vals).to("cuda", torch.bfloat16)
    ref_window = window if window != (-1, -1) else None
    for lens_q in ([1, 1, 1, 1], [5, 1, 5, 5]):
        q = torch.randn(sum(lens_q), 8, d, generator=gen).to("cuda", torch.bfloat16)
        cu_q, cu_k = offsets(lens_q, "cuda"), offsets(lens_k, "cuda")
        out, lse = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), 3000, causal=True,
                                                window_size=window, softcap=cap, block_table=bt, return_lse=True)
        check_sequences(out, lse, q, k_cat, v_cat, cu_q, cu_k, d ** -0.5, True, 1e-2, ref_window, cap)
        flat, flat_lse = dhpfa.flash_attn_varlen_func(q, k_cat, v_cat, cu_q, cu_k, max(lens_q), 3000, causal=True,
                                                      window_size=window, softcap=cap, return_lse=True)
        assert torch.equal(out, flat) and torch.equal(lse, flat_lse), "paged differs from contiguous"
    assert not gathered
    plans = [p for p in api._PLANS.values() if isinstance(p, api._VarlenPlan) and "_paged" in p.variant.name]
    blocks = page % variants.VARLEN[d].block_n == 0
    assert len(plans) == 2 and all(p.variant.kernel == variants.VARLEN_KERNELS[
        (window != (-1, -1), cap > 0, p.splits > 1, True, True, blocks)] for p in plans), [p.variant.name for p in plans]
    from dhpfa.audit import compile as C, variant_launch
    from dhpfa.kernels import dispatch, triton_fwd
    v_ = plans[0].variant
    grid, args, kwargs = dispatch.varlen_launch_args(v_, q, kc.view(-1, 2, d), vc.view(-1, 2, d), torch.empty_like(q),
                                                     torch.empty(8, q.shape[0], device="cuda"), cu_q, cu_k,
                                                     max(lens_q), 0.1, window=window, softcap=cap, group=4,
                                                     splits=plans[0].splits,
                                                     ws=triton_fwd.varlen_workspace(q, plans[0].splits)
                                                     if plans[0].splits > 1 else (None, None),
                                                     paged=(bt, page, kc.shape[0]))
    launched = dispatch.kernel_fn(v_.kernel)[grid](*args, **kwargs)
    assert launched.asm["cubin"] == C.compile_offline(*variant_launch(v_)).cubin


@pytest.mark.gpu
@pytest.mark.parametrize("d", [64, 128, 256])
@pytest.mark.parametrize("window,cap", [((100, 0), 0.0), ((-1, -1), 30.0), ((300, 0), 20.0)])
def test_gpu_paged_cache_with_window_or_softcap(d, window, cap, monkeypatch):
    """Paged caches with a local window and / or a soft-cap on the GPU binaries: decode steps gathered
    (api._gather_pages) onto the portable kernel, 300-query chunks on the Hopper paged builds where the rule sends
    them (D=256; soft-capped D=128) and gathered otherwise: NaN in every cache row that holds no key, pages of 256 in a random order; against float64 per sequence, and a
    second call bitwise equal."""
    monkeypatch.setattr(api, "_PLANS", {})
    gen = torch.Generator().manual_seed(56 + d)
    lens_k = [3000, 1, 700, 2048]
    kc, vc, bt, keys, vals = _nan_paged(lens_k, 2, d, 256, gen, torch.bfloat16, page0_seq=1)
    kc, vc, bt = kc.cuda(), vc.cuda(), bt.cuda()
    k_cat, v_cat = torch.cat(keys).cuda(), torch.cat(vals).cuda()
    for lens_q in ([1, 1, 1, 1], [300, 1, 300, 64]):
        q = torch.randn(sum(lens_q), 8, d, generator=gen).to("cuda", torch.bfloat16)
        cu_q, cu_k = offsets(lens_q, "cuda"), offsets(lens_k, "cuda")
        out, lse = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), 3000, causal=True,
                                                window_size=window, softcap=cap, block_table=bt, return_lse=True)
        check_sequences(out, lse, q, k_cat, v_cat, cu_q, cu_k, d ** -0.5, True, 1e-2,
                        window if window != (-1, -1) else None, cap)
        again = dhpfa.flash_attn_varlen_func(q, kc, vc, cu_q, cu_k, max(lens_q), 3000, causal=True,
                                             window_size=window, softcap=cap, block_table=bt)
        assert torch.equal(again, out)


@pytest.mark.gpu
def test_gpu_varlen_plans_keep_fast_launchers(monkeypatch):
    """Plain, grouped and split varlen calls keep the dispatcher's fast launcher in their plans (the kernel's trailing
    integer and block-table parameters, passed by name, are constants of the plan's key), and a call through it gives
    the bits of the first (JIT) call."""
    monkeypatch.setattr(api, "_PLANS", {})
    gen = torch.Generator().manual_seed(55)
    for lens_q, lens_k in (([300, 40], [300, 900]), ([1, 1, 1], [5000, 3000, 20])):
        q, k, v, cu_q, cu_k = packed(lens_q, lens_k, 8, 2, 128, torch.bfloat16, "cuda", gen)
        first = dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, max(lens_q), max(lens_k), causal=True)
        assert torch.equal(dhpfa.flash_attn_varlen_func(q, k, v, cu_q, cu_k, max(lens_q), max(lens_k), causal=True),
                           first)
    plans = [p for p in api._PLANS.values() if isinstance(p, api._VarlenPlan)]
    assert len(plans) == 2 and all(p.launcher is not None for p in plans)


# ---- grids past CUDA's second-axis limit (dispatch.batch_slices), the limit lowered for the interpreter -------------
def _sliced(monkeypatch, limit):
    """Lower dispatch.MAX_GRID_Y to `limit` and record the second-axis size of every varlen attention launch."""
    from dhpfa.kernels import dispatch
    monkeypatch.setattr(dispatch, "MAX_GRID_Y", limit)
    sizes, real = [], dispatch.varlen_launch_args

    def recording(variant, *a, **kw):
        out = real(variant, *a, **kw)
        if variant.kernel in variants.VARLEN_KERNELS.values():
            sizes.append(out[0][1])
        return out
    monkeypatch.setattr(dispatch, "varlen_launch_args", recording)
    return sizes


@interp
@pytest.mark.parametrize("causal", [False, True])
def test_sequences_past_the_grid_limit_run_as_slices(monkeypatch, split, grouped, causal):
    """More sequences x head groups than the grid's second axis takes: the call runs as launches over slices of the
    sequences (their offsets moved, q, k, lse and the split workspace shared: absolute rows), each within the limit,
    and every sequence (the tail slice's included) matches float64."""
    sizes = _sliced(monkeypatch, 16)
    lens_q, lens_k = [5, 1, 17, 3, 0, 9, 2, 11, 4], [5, 30, 17, 1, 6, 9, 0, 20, 4]
    run_case(lens_q, lens_k, 4, 2, 32, causal, torch.float16, seed=3 + causal)
    per_seq = 2 if grouped else 4
    assert len(sizes) == -(-9 // (16 // per_seq // 4 * 4)) >= 2 and max(sizes) <= 16
    assert sum(sizes) == 9 * per_seq


@interp
def test_paged_cache_past_the_grid_limit_runs_as_slices(monkeypatch, split):
    """A paged cache's block table moves with the sequences' offsets."""
    sizes = _sliced(monkeypatch, 8)
    run_paged([1, 3, 2, 1, 2, 1], [19, 7, 0, 40, 12, 5], 2, 8, True, 77)
    assert len(sizes) == 2 and sizes == [8, 4]


@interp
def test_kvcache_past_the_grid_limit_runs_as_slices(monkeypatch):
    """flash_attn_with_kvcache's (start, end) row pairs per sequence (k_stride 2) move two entries per sequence."""
    sizes = _sliced(monkeypatch, 8)
    kc, vc, gen = _cache(b=6, hk=2)
    lens = torch.tensor([5, 17, 0, 33, 1, 12], dtype=torch.int32)
    q = (torch.randn(6, 2, 2, 32, generator=gen) * 2).half()
    out, lse = dhpfa.flash_attn_with_kvcache(q, kc, vc, cache_seqlens=lens, causal=True, return_softmax_lse=True)
    assert len(sizes) == 2 and sizes == [8, 4]
    for b in range(6):
        n = int(lens[b])
        ref, ref_lse = attention_ref(q[b:b + 1], kc[b:b + 1, :n], vc[b:b + 1, :n], 1 / math.sqrt(32),
                                     n - 2, None, 0.0)
        finite = torch.isfinite(ref_lse)
        if finite.any():
            assert rel_err(out[b:b + 1], ref) < TOL[torch.float16], b
        assert torch.equal(torch.isfinite(lse[b:b + 1]), finite), b


# (session 67) flash_attn_with_kvcache's decode steps on the swap decode kernels' KV-cache builds (variants.
# decode_kv_choice, sm90_decode VARLEN): (batch, query heads, key/value heads, cache length, head dim, lengths,
# new tokens, leftpad, the build the rule gives on 132 SMs: "merged" / "split")
_SWAP_KV = [(1, 32, 8, 8192, 128, [5000], 1, None, "split"),  # 8 pairs x 16 parts
            (2, 32, 8, 4096, 128, [4096, 1], 0, None, "merged"),  # 16 pairs x 8
            (4, 32, 8, 2048, 64, [0, 129, 2047, 1000], 1, None, "merged"),  # 32 x 4; a sequence of one new key
            (4, 32, 8, 2048, 64, [0, 129, 2048, 1000], 0, None, "merged"),  # (and one of no key: 0 and -inf)
            (1, 32, 4, 16384, 64, [12345], 1, None, "split"),  # 4 pairs x 32
            (1, 32, 32, 8192, 128, [8191], 1, None, "merged"),  # MHA (groups of one): 32 x 4
            (2, 16, 2, 65536, 128, [300, 65535], 1, None, "split"),  # 4 pairs x 16, one short sequence
            (4, 8, 2, 2048, 64, [100, 2000, 1, 1500], 1, [5, 0, 1, 1400], None)]  # leftpad (the rule at 8 pairs)

# (session 68) the fill (variants.SWAP_DECODE_KV_FILL): pair counts where no dense parts rule is, max(1, SMs // pairs)
# parts of the merged build on 132 SMs, at most the cache's key blocks
_SWAP_KV_FILL = [(8, 32, 8, 4096, 128, [4095, 1, 0, 129, 2048, 4000, 3333, 777], 1, None, "merged"),  # 64 pairs x 2
                 (30, 32, 8, 4096, 128, [(i * 397) % 4097 for i in range(30)], 0, None, "merged"),  # 240 pairs x 1
                 (29, 32, 8, 512, 64, [(i * 37) % 512 for i in range(29)], 1, None, "stream"),  # 232 pairs (whole)
                 (1, 32, 8, 1000, 128, [999], 1, None, "merged"),  # 8 pairs x 8 (the cache's 8 blocks)
                 (5, 32, 8, 4096, 64, [0, 1, 4095, 2000, 3000], 1, [0, 0, 7, 1999, 0], "merged"),  # 40 x 3, leftpad
                 # (session 68) the whole-pair builds' KV-cache form: pairs of their own sequences' blocks, a program
                 # 1-2 pairs; sequences of no key (0 and -inf), one key, odd and full
                 (64, 32, 8, 1024, 128, [(i * 131) % 1025 for i in range(64)], 0, None, "stream"),  # 512 pairs
                 (48, 32, 8, 1024, 64, [(i * 77) % 1024 for i in range(48)], 1, None, "stream"),  # 384 pairs
                 (33, 32, 8, 2000, 128, [(i * 611) % 2000 for i in range(33)], 1,
                  [(i * 7) % 300 for i in range(33)], "stream"),  # 264 pairs, leftpad
                 # (session 69) the stream build's KV-cache form ("flat": its flat schedule over the caches' blocks,
                 # pieces of pairs merged by the done-words); sequences of no key, one key, odd and full
                 (17, 32, 8, 4096, 128, [(i * 397) % 4097 for i in range(17)], 0, None, "flat"),  # 136 pairs
                 (34, 32, 8, 4096, 128, [(i * 1229) % 4096 for i in range(34)], 1,
                  [(i * 11) % 700 for i in range(34)], "flat"),  # 272 pairs, leftpad, a new token
                 (17, 32, 8, 8192, 64, [(i * 2003) % 8193 for i in range(17)], 0, None, "flat"),  # D=64 136 pairs
                 (35, 32, 8, 2048, 64, [(i * 301) % 2049 for i in range(35)], 1, None, "flat"),  # D=64 280 (WIDE)
                 (17, 32, 8, 3001, 128, [(i * 887) % 3001 for i in range(17)], 1, None, "stream")]  # odd (whole)


def _kv_kind(kind):
    """The kernel a case's kind names: "flat" (session 69) the stream build's KV-cache form on its flat schedule."""
    return "stream" if kind == "flat" else kind


def test_decode_kv_choice(monkeypatch):
    """(Session 67, offline.) decode_kv_choice: the KV-cache builds (audited, NQ = 8) where decode_choice at the cache's
    length runs the merged or split build, with its part count; None where it runs the whole-pair or stream builds, for
    groups of 9-16, head dims without swap builds, with SWAP_DECODE_KV off; the split form from swap_decode_split's
    parts."""
    audited = variants.decode_variants()
    for b, h, hk, sc, d, *_rest, kind in _SWAP_KV:
        if kind is None:
            continue
        v, parts = variants.decode_kv_choice(torch.bfloat16, d, b, h, hk, sc, 132)
        assert v in audited and v.config.block_m == 8 and v.public_loads == ("FLAGS", "BOUNDS"), v.name
        assert v.kernel == variants.SWAP_DECODE_KV_KERNELS[
            variants.SWAP_DECODE_SPLIT_KERNEL if kind == "split" else variants.SWAP_DECODE_MERGED_KERNEL], v.name
        assert parts == variants.swap_decode_parts(d, b, h, hk, sc, 132)
        assert (kind == "split") == bool(variants.swap_decode_split(d, parts))
    for cell in ((1, 64, 4, 16384, 128),):
        b, h, hk, sc, d = cell  # a group of 16
        assert variants.decode_choice(torch.bfloat16, d, b, h, hk, sc, 132) is not None
        assert variants.decode_kv_choice(torch.bfloat16, d, b, h, hk, sc, 132) is None, cell
    # (session 69) where the dense route is the stream build (its flat schedule): its KV-cache form, as many programs
    for b, h, hk, sc, d in ((68, 32, 4, 4096, 128), (17, 32, 8, 4096, 128), (17, 32, 8, 8192, 64),
                            (40, 32, 8, 16384, 128)):
        dense = variants.decode_choice(torch.bfloat16, d, b, h, hk, sc, 132)
        v, n = variants.decode_kv_choice(torch.bfloat16, d, b, h, hk, sc, 132)
        assert not variants.stream_pair_units(dense[0]) and dense[0].kernel == variants.SWAP_DECODE_STREAM_KERNEL
        assert v.kernel == "attn_decode_sm90_stream_kv" and n == dense[1] and not variants.stream_pair_units(v)
        assert v in audited and v.config == dense[0].config and v.public_loads == ("FLAGS", "BOUNDS"), v.name
        monkeypatch.setattr(variants, "SWAP_DECODE_KV_STREAM", False)  # off: as before (the fill, or None)
        off = variants.decode_kv_choice(torch.bfloat16, d, b, h, hk, sc, 132)
        assert off is None or off[0].kernel == "attn_decode_sm90_merged_kv", off
        assert not any(u.kernel.endswith("stream_kv") and not variants.stream_pair_units(u)
                       for u in variants.decode_variants())
        monkeypatch.setattr(variants, "SWAP_DECODE_KV_STREAM", True)
    # (session 69, SWAP_DECODE_KV_STREAM_WIDE) D=64 past twice the SMs' pairs where the dense route is the forward
    # kernels: the stream form in two programs an SM, from 2,048 keys, up to 2.5x the SMs' pairs
    for b, sc, n in ((34, 4096, 264), (40, 16384, 264), (41, 2048, 264), (34, 1024, 0), (42, 4096, 0), (33, 4096, 264)):
        assert variants.decode_choice(torch.bfloat16, 64, b, 32, 8, sc, 132) is None or b in (33, 42)
        choice = variants.decode_kv_choice(torch.bfloat16, 64, b, 32, 8, sc, 132)
        if not n:
            assert choice is None or variants.stream_pair_units(choice[0]), (b, sc, choice)
            continue
        assert choice[0] == variants.decode_kv_variant(torch.bfloat16, 64, False, stream=True) or b == 33, (b, sc)
        assert choice[1] == n and choice[0] in audited
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_STREAM_WIDE", {})
    assert variants.decode_kv_choice(torch.bfloat16, 64, 34, 32, 8, 4096, 132) is None
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_STREAM_WIDE", {64: 2.5})
    # ... but not at the SMs' pairs or fewer (the dense rule's program a pair: call 3 lost on half-filled caches)
    for b, hk, sc, d in ((16, 8, 4096, 128), (9, 8, 2048, 128), (16, 8, 4096, 64)):
        assert variants.decode_choice(torch.bfloat16, d, b, 4 * hk, hk, sc, 132)[0].kernel == \
            variants.SWAP_DECODE_STREAM_KERNEL
        assert variants.decode_kv_choice(torch.bfloat16, d, b, 4 * hk, hk, sc, 132)[0].kernel == \
            "attn_decode_sm90_merged_kv", (b, hk, sc, d)
    # (session 68) where the dense route is the whole-pair builds (PAIR_UNITS): their KV-cache form, as many programs
    for b, h, hk, sc, d in ((64, 32, 8, 4096, 128), (64, 32, 8, 1024, 64), (256, 32, 8, 1024, 128)):
        dense = variants.decode_choice(torch.bfloat16, d, b, h, hk, sc, 132)
        v, n = variants.decode_kv_choice(torch.bfloat16, d, b, h, hk, sc, 132)
        assert variants.stream_pair_units(dense[0]) and v.kernel == "attn_decode_sm90_stream_kv" and n == dense[1]
        assert v in audited and v.config == dense[0].config and v.public_loads == ("BOUNDS",), v.name
    for d in (32, 96, 256):
        assert variants.decode_kv_choice(torch.bfloat16, d, 1, 32, 8, 65536, 132) is None
    assert variants.decode_kv_choice(torch.bfloat16, 128, 1, 32, 8, 8192, 132) is not None
    for b, h, hk, sc, d, *_rest, kind in _SWAP_KV_FILL:  # (the GPU test's cases: the build each names, on 132 SMs)
        v, _ = variants.decode_kv_choice(torch.bfloat16, d, b, h, hk, sc, 132)
        assert v.kernel == f"attn_decode_sm90_{_kv_kind(kind)}_kv" and v in audited, (b, h, hk, sc, d, v.name)
        assert (kind == "flat") == (v.kernel.endswith("stream_kv") and not variants.stream_pair_units(v)), v.name
    # (session 68, the fill, on) up to SWAP_DECODE_KV_FILL x the SMs' pairs, where the dense rule runs other builds or
    # the forward kernels: the merged build in max(1, SMs // pairs) parts, at most the cache's key blocks
    assert variants.SWAP_DECODE_KV_FILL == 2
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_STREAM", False)  # (session 69: the stream form first where it is)
    for b, hk, sk, parts in ((8, 8, 4096, 2), (16, 8, 4096, 1), (9, 4, 4096, 3), (30, 8, 4096, 1), (33, 8, 4096, 1),
                             (30, 8, 8192, 1), (5, 8, 4096, 3), (1, 8, 300, 3), (1, 8, 1000, 8)):
        assert not variants.swap_decode_parts(128, b, 4 * hk, hk, sk, 132), (b, hk, sk)  # (no dense parts rule,
        assert not variants.swap_decode_whole(128, b, 4 * hk, hk, sk, 132), (b, hk, sk)  # no whole-pair one)
        v, n = variants.decode_kv_choice(torch.bfloat16, 128, b, 4 * hk, hk, sk, 132)
        assert v.kernel == "attn_decode_sm90_merged_kv" and n == parts and v in audited, (b, hk, v.name, n)
    assert variants.decode_kv_choice(torch.bfloat16, 128, 17, 32, 8, 4096, 132)[1] == 3  # (SWAP_DECODE_KV_FILL_TAIL)
    assert variants.decode_kv_choice(torch.bfloat16, 128, 68, 32, 4, 4096, 132) is None  # (272 stream pairs: past 2 x
    assert variants.decode_kv_choice(torch.bfloat16, 128, 68, 32, 4, 4096, 136)[1] == 1  # 132, not 2 x 136)
    assert variants.decode_kv_choice(torch.bfloat16, 128, 1, 32, 8, 8192, 132)[1] == 16  # (the dense parts first)
    # D=64: none past the SMs' pairs below 1.7x them (SWAP_DECODE_KV_FILL_SKIP), where no whole-pair rule is
    assert variants.decode_kv_choice(torch.bfloat16, 64, 16, 32, 8, 8192, 132)[1] == 1
    assert not variants.swap_decode_whole(64, 17, 32, 8, 8192, 132)
    assert variants.decode_kv_choice(torch.bfloat16, 64, 17, 32, 8, 8192, 132) is None
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_STREAM", True)  # (there, the stream build's form)
    assert variants.decode_kv_choice(torch.bfloat16, 64, 17, 32, 8, 8192, 132)[1] == 264
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_FILL", 0)  # off: the varlen route where no dense parts rule is
    assert variants.decode_kv_choice(torch.bfloat16, 128, 8, 32, 8, 4096, 132) is None
    assert variants.decode_kv_choice(torch.bfloat16, 128, 1, 32, 8, 1000, 132) is None
    monkeypatch.setattr(variants, "SWAP_DECODE_KV", False)
    assert variants.decode_kv_choice(torch.bfloat16, 128, 1, 32, 8, 8192, 132) is None
    assert not any(v.kernel.endswith("_kv") for v in variants.decode_variants())
    monkeypatch.setattr(variants, "SWAP_DECODE_KV", True)
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_WHOLE", False)  # (session 68's whole-pair form off)
    assert not any(v.kernel.endswith("stream_kv") and variants.stream_pair_units(v) for v in variants.decode_variants())
    choice = variants.decode_kv_choice(torch.bfloat16, 128, 64, 32, 8, 4096, 132)
    assert choice is None or not choice[0].kernel.endswith("stream_kv")


@pytest.mark.parametrize("d", [32, 64, 96, 128, 192, 256])
def test_decode_kv_choice_sweep(d, monkeypatch):
    """(Session 67, offline.) decode_kv_choice over head dims 32-256, groups 1-32, 1-2,600 pairs and 1-65,536 keys (the
    prepared fill on and off): None, or an audited KV-cache build at NQ = 8 with a part count its launch takes (the
    split build SWAP_DECODE_SPLIT to SWAP_DECODE_MERGE_PARTS parts and at most the SMs' programs, the merged one up to
    its MAX_PARTS); never an error. D = 64 / 128 reach both builds."""
    audited = variants.decode_variants()
    seen = set()
    for fill in (0, 2):
        monkeypatch.setattr(variants, "SWAP_DECODE_KV_FILL", fill)
        for group in (1, 2, 4, 8, 9, 16, 32):
            for pairs in (1, 2, 4, 8, 16, 32, 40, 64, 100, 132, 136, 264, 1100, 2600):
                hk = 8 if pairs % 8 == 0 else 1 if pairs < 4 else 4 if pairs % 4 == 0 else 2
                for sk in (1, 1000, 4096, 20000, 65536):
                    choice = variants.decode_kv_choice(torch.bfloat16, d, pairs // hk, group * hk, hk, sk, 132)
                    if choice is None:
                        continue
                    v, parts = choice
                    assert v in audited and v.config.block_m == 8 and group <= 8 and parts >= 1, (group, pairs, sk)
                    if v.kernel.endswith("split_kv"):
                        assert variants.SWAP_DECODE_SPLIT[d] <= parts <= variants.SWAP_DECODE_MERGE_PARTS[d]
                        assert pairs * parts <= 132  # (a cooperative launch: every program resident)
                    elif v.kernel.endswith("stream_kv"):  # (session 68) whole pairs a program: at most the pairs;
                        # (session 69) the flat schedule: the dense stream build's programs
                        units = variants.stream_pair_units(v)
                        assert 1 <= parts <= (pairs if units else 132 * variants.SWAP_DECODE_STREAM_PER_SM[d]), parts
                        sm90_decode_stream_ok(pairs // hk, hk, sk, parts, v)
                    else:
                        assert parts <= variants.swap_decode_merge_build(d)[0]
                    seen.add(v.kernel)
    assert seen == ({"attn_decode_sm90_merged_kv", "attn_decode_sm90_split_kv", "attn_decode_sm90_stream_kv"}
                    if d in (64, 128) else set()), seen


def sm90_decode_stream_ok(b, hk, sk, n_prog, v):
    """The whole-pair KV-cache build's launch arguments at (b sequences, hk key/value heads, a cache of sk rows, n_prog
    programs) build (offline): VARLEN with the rows as BOUNDS, PAIR_UNITS; (session 69) the stream build's: VARLEN
    without PAIR_UNITS (its pieces within the build's parts, its TAIL reads within a warp)."""
    from dhpfa.kernels import sm90_decode
    q = torch.empty(b, 1, 8 * hk, v.head_dim, dtype=torch.bfloat16)
    k = torch.empty(b, sk, hk, v.head_dim, dtype=torch.bfloat16)
    bounds = torch.empty(2 * b, dtype=torch.int32)
    n = variants.SWAP_DECODE_STREAM_PARTS
    units = variants.stream_pair_units(v)
    grid, _, kw = sm90_decode.stream_launch_args(q, k, k, None, None, q, None, None, 0.1, n_prog, n, v.config.block_n,
                                                 v.config.num_stages, v.config.num_warps, pair_units=units,
                                                 bounds=bounds)
    assert grid == (n_prog,) and kw["VARLEN"] is True and kw["BOUNDS"] is bounds and kw.get("PAIR_UNITS", False) is units


def test_decode_kv_launch_arguments():
    """(Session 67, offline.) sm90_decode.launch_args with key rows: a grid of exactly the parts asked for (each
    sequence's keys split in the kernel), the rows passed as BOUNDS with VARLEN; refused without the merge."""
    from dhpfa.kernels import sm90_decode
    q = torch.empty(2, 1, 32, 128, dtype=torch.bfloat16)
    k = torch.empty(2, 4097, 8, 128, dtype=torch.bfloat16)
    bounds = torch.empty(4, dtype=torch.int32)
    for parts, split in ((16, 8), (8, 0)):
        ws = (torch.empty(parts, 2, 32, 128), torch.empty(parts, 32, 2))
        merge = (torch.empty_like(q), torch.empty(32, 2), torch.empty(2 * 8 * parts, dtype=torch.int64))
        grid, args, kw = sm90_decode.launch_args(q, k, k, *ws, 0.1, parts, merge=merge, split=split, bounds=bounds)
        assert grid == (parts, 16) and kw["BOUNDS"] is bounds and kw["VARLEN"] is True, (grid, kw)
        assert sm90_decode.decode_parts(4097, parts, 128)[0] < parts  # (the dense form would drop parts here)
        _, _, dense = sm90_decode.launch_args(q, k, k, *ws, 0.1, parts, merge=merge, split=split)
        assert "BOUNDS" not in dense and "VARLEN" not in dense
    with pytest.raises(ValueError, match="bounds"):
        sm90_decode.launch_args(q, k, k, *ws, 0.1, 8, bounds=bounds)


def test_decode_kv_paged_form(monkeypatch):
    """(Session 68, offline; session 69: prepared, off.) The whole-pair KV-cache build's paged form: no binary while
    SWAP_DECODE_KV_PAGED is off (decode_kv_paged_choice None); on, the form where decode_kv_choice at the logical
    capacity gives the whole-pair form and pages are a power of two rows holding whole key blocks, else None; its launch
    arguments (PAGED, the block table's stride, columns and the page's shift), refused for other pages or without the
    rows; its four builds audit clean with the block table declared public and are flagged without it."""
    from dhpfa.kernels import sm90_decode
    assert variants.SWAP_DECODE_KV_PAGED is False and variants.SWAP_DECODE_KV_PAGED_PARTS is False  # (session 69:
    # the paged forms prepared, off; on here)
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED_PARTS", True)
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED", False)
    assert not any(v.kernel.endswith("_kvp") for v in variants.decode_variants())
    assert variants.decode_kv_paged_choice(torch.bfloat16, 128, 64, 32, 8, 1024, 256, 132) is None
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED", True)
    paged = [v for v in variants.decode_variants() if v.kernel.endswith("_kvp")]
    assert len(paged) == 2 * len(variants.SWAP_DECODE_WHOLE) + 2 * len(variants.SWAP_DECODE_STREAM) + \
        2 * len(variants.SWAP_DECODE_MERGE_DIMS) + 2 * len(variants.SWAP_DECODE_SPLIT), paged
    for d in (128, 64):
        dense = variants.decode_kv_choice(torch.bfloat16, d, 64, 32, 8, 1024, 132)
        v, n = variants.decode_kv_paged_choice(torch.bfloat16, d, 64, 32, 8, 1024, 256, 132)
        assert v in paged and v.config == dense[0].config and n == dense[1] and variants.decode_base_kernel(
            v.kernel) == variants.SWAP_DECODE_STREAM_KERNEL and v.public_loads == ("BOUNDS", "BLOCK_TABLE")
        assert variants.decode_kv_paged_choice(torch.bfloat16, d, 64, 32, 8, 1024, 96, 132) is None  # (not 2^k)
        assert variants.decode_kv_paged_choice(torch.bfloat16, d, 64, 32, 8, 1024, 32, 132) is None  # (< a block)
    # (session 69) the stream build's paged form where decode_kv_choice gives the stream form (its 128-key blocks)
    for d, b, cap in ((128, 34, 4096), (128, 17, 8192), (64, 17, 8192), (64, 34, 4096)):
        dense = variants.decode_kv_choice(torch.bfloat16, d, b, 32, 8, cap, 132)
        v, n = variants.decode_kv_paged_choice(torch.bfloat16, d, b, 32, 8, cap, 256, 132)
        assert v in paged and v.config == dense[0].config and n == dense[1] and not variants.stream_pair_units(v)
        assert v.public_loads == ("FLAGS", "BOUNDS", "BLOCK_TABLE"), v
        assert variants.decode_kv_paged_choice(torch.bfloat16, d, b, 32, 8, cap, 64, 132) is None  # (< a block)
        monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED_STREAM", False)
        assert variants.decode_kv_paged_choice(torch.bfloat16, d, b, 32, 8, cap, 256, 132) is None
        monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED_STREAM", True)
    # (session 69) the merged and split builds' paged forms where decode_kv_choice gives them (the parts, the fill)
    for d, b, cap in ((128, 1, 8192), (64, 4, 2048), (128, 8, 4096), (64, 1, 16384)):
        dense = variants.decode_kv_choice(torch.bfloat16, d, b, 32, 8, cap, 132)
        v, n = variants.decode_kv_paged_choice(torch.bfloat16, d, b, 32, 8, cap, 256, 132)
        assert v in paged and v.config == dense[0].config and n == dense[1], (d, b, cap, v)
        assert variants.decode_base_kernel(v.kernel) == variants.decode_base_kernel(dense[0].kernel) != \
            variants.SWAP_DECODE_STREAM_KERNEL and v.public_loads == ("FLAGS", "BOUNDS", "BLOCK_TABLE"), v
        assert variants.decode_kv_paged_choice(torch.bfloat16, d, b, 32, 8, cap, 64, 132) is None  # (< a block)
        monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED_PARTS", False)
        assert variants.decode_kv_paged_choice(torch.bfloat16, d, b, 32, 8, cap, 256, 132) is None
        monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED_PARTS", True)
    q = torch.empty(4, 1, 32, 128, dtype=torch.bfloat16)
    pages = torch.empty(12, 256, 8, 128, dtype=torch.bfloat16)
    table, bounds = torch.empty(4, 3, dtype=torch.int32), torch.empty(8, dtype=torch.int32)
    ws = (torch.empty(4, 4, 32, 128), torch.empty(4, 32, 4))
    extra = (torch.empty_like(q), torch.empty(32, 4), torch.empty(64, dtype=torch.int64), 0.1, 16, 4, 64, 2, 4)
    grid, _, kw = sm90_decode.stream_launch_args(q, pages, pages, *ws, *extra, pair_units=True, bounds=bounds,
                                                 block_table=table)
    assert grid == (16,) and kw["PAGED"] is True and kw["BLOCK_TABLE"] is table and kw["VARLEN"] is True
    assert (kw["BT_STRIDE"], kw["BT_COLS"], kw["PAGE_SHIFT"]) == (3, 3, 8)
    for k, b_ in ((torch.empty(12, 192, 8, 128, dtype=torch.bfloat16), bounds), (pages, None)):
        with pytest.raises(ValueError, match="block_table"):
            sm90_decode.stream_launch_args(q, k, k, *ws, *extra, pair_units=True, bounds=b_, block_table=table)
    # (session 69) the flat schedule: its pieces and pairs from the logical capacity (3 pages of 256 a sequence)
    # (100 programs over 32 pairs of 6 blocks: at most 4 pieces a pair; the pages' 2 blocks a pair would be 64 blocks,
    # fewer than the programs; 192 programs: 6 pieces, past the build's 4)
    grid, _, kw = sm90_decode.stream_launch_args(q, pages, pages, *ws, *(extra[:4] + (100, 4, 128, 3, 4)), bounds=bounds,
                                                 block_table=table)
    assert grid == (100,) and kw["PAGED"] is True and "PAIR_UNITS" not in kw and kw["BT_COLS"] == 3
    with pytest.raises(ValueError, match="merges at most 4"):
        sm90_decode.stream_launch_args(q, pages, pages, *ws, *(extra[:4] + (192, 4, 128, 3, 4)), bounds=bounds,
                                       block_table=table)
    # (session 69) the merged build's paged launch arguments
    ws8 = (torch.empty(8, 4, 32, 128), torch.empty(8, 32, 4))
    merge = (torch.empty_like(q), torch.empty(32, 4), torch.empty(4 * 8 * 8, dtype=torch.int64))
    grid, _, kw = sm90_decode.launch_args(q, pages, pages, *ws8, 0.1, 8, merge=merge, bounds=bounds, block_table=table)
    assert grid == (8, 32) and kw["PAGED"] is True and kw["BLOCK_TABLE"] is table and kw["PAGE_SHIFT"] == 8
    for k, b_ in ((torch.empty(12, 192, 8, 128, dtype=torch.bfloat16), bounds), (pages, None)):
        with pytest.raises(ValueError, match="block_table|bounds"):
            sm90_decode.launch_args(q, k, k, *ws8, 0.1, 8, merge=merge, bounds=b_, block_table=table)
    from .test_sm90_decode import _offline_json
    assert _offline_json(PAGED_AUDIT) == dict(ok=[True] * len(paged), bad=[False, False, False])


PAGED_AUDIT = """
import json, torch
from dataclasses import replace
from dhpfa.audit import _audit_batch
from dhpfa.kernels import variants
variants.SWAP_DECODE_KV_PAGED = variants.SWAP_DECODE_KV_PAGED_PARTS = True
paged = [v for v in variants.decode_variants() if v.kernel.endswith("_kvp")]
w = variants.decode_kv_variant(torch.bfloat16, 64, False, whole=True, paged=True)
f = variants.decode_kv_variant(torch.bfloat16, 128, False, stream=True, paged=True)  # (session 69)
m = variants.decode_kv_variant(torch.bfloat16, 64, True, paged=True)  # (session 69: the split build's)
reports = _audit_batch(paged + [replace(w, public_loads=("BOUNDS",)), replace(f, public_loads=("FLAGS", "BOUNDS")),
                                replace(m, public_loads=("FLAGS", "BOUNDS"))])
print(json.dumps(dict(ok=[r.ok for r in reports[:-3]], bad=[r.ok for r in reports[-3:]])))
"""


def test_decode_kv_builds_need_their_rows_declared_public():
    """(Session 67, offline.) The KV-cache builds pass the audit with their key rows declared public, and fail it
    without: the rows set loop bounds and TMA coordinates (the check can fail). (Session 69: in a subprocess, as
    PAGED_AUDIT: in-process, a test that ran Triton's interpreter before it broke the Gluon compile.)"""
    from .test_sm90_decode import _offline_json
    kinds = _offline_json(ROWS_AUDIT)
    assert kinds["ok"] == [True, False, True, False, True, False], kinds
    assert "address" in kinds["bad"][0] and set(kinds["bad"][1]) & {"address", "branch"} and "address" in kinds["bad"][2]


ROWS_AUDIT = """
import json, torch
from dataclasses import replace
from dhpfa.audit import _audit_batch
from dhpfa.kernels import variants
v = variants.decode_kv_variant(torch.bfloat16, 128, False)
w = variants.decode_kv_variant(torch.bfloat16, 64, False, whole=True)  # (session 68: the whole-pair form)
f = variants.decode_kv_variant(torch.bfloat16, 128, False, stream=True)  # (session 69: the stream build's)
reports = _audit_batch([v, replace(v, public_loads=("FLAGS",)), w, replace(w, public_loads=()), f,
                        replace(f, public_loads=("FLAGS",))])
print(json.dumps(dict(ok=[r.ok for r in reports],
                      bad=[sorted({x.kind for rr in r.reports for x in rr.findings}) for r in reports[1::2]])))
"""


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("case", _SWAP_KV + _SWAP_KV_FILL,
                         ids=[f"{c[0]}x{c[1]}/{c[2]}-{c[3]}-d{c[4]}" + ("-pad" if c[7] else "")
                              for c in _SWAP_KV + _SWAP_KV_FILL])
def test_gpu_kvcache_decode_on_the_swap_kernels(monkeypatch, case, dtype):
    """(Session 67.) One-query flash_attn_with_kvcache calls with per-sequence lengths (a tensor: 0, 1, odd, full,
    with and without new tokens, left-padded) on the KV-cache builds where the rule gives them: every head of every
    sequence against float64 (out and lse; a sequence with no key: 0 and -inf) on poisoned outputs (session 68: and
    where the fill gives them, _SWAP_KV_FILL); the call's plan
    (from the second call) launches the same build and gives the same bits; a CUDA graph's replay too."""
    b, h, hk, sc, d, lens0, s_new, pad, kind = case
    from dhpfa.kernels import dispatch
    poison_api_outputs(monkeypatch)
    gen = torch.Generator().manual_seed(67 + sc + d)
    caches = [(torch.randn(b, sc, hk, d, generator=gen) * 2).to("cuda", dtype) for _ in range(2)]
    q = torch.randn(b, 1, h, d, generator=gen).to("cuda", dtype)
    new = [torch.randn(b, s_new, hk, d, generator=gen).to("cuda", dtype) for _ in range(2)] if s_new else [None] * 2
    lens = torch.tensor(lens0, dtype=torch.int32, device="cuda")
    kw = dict(causal=True, return_softmax_lse=True)
    if pad is not None:
        kw["cache_leftpad"] = torch.tensor(pad, dtype=torch.int32, device="cuda")
    choice = variants.decode_kv_choice(dtype, d, b, h, hk, sc, dispatch.sm_count(torch.device("cuda")))
    if kind is not None and dispatch.sm_count(torch.device("cuda")) == 132:
        assert choice is not None and choice[0].kernel.endswith(_kv_kind(kind) + "_kv"), choice
        assert (kind == "flat") == (kind in ("stream", "flat") and not variants.stream_pair_units(choice[0])), choice
    launched = []
    real = api._kvcache_swap
    monkeypatch.setattr(api, "_kvcache_swap", lambda *a: launched.append(a[4]) or real(*a))
    api._PLANS.clear()
    runs = []
    for _ in range(3):  # the checked call, then (from its kept launchers) the planned one
        kc, vc = (c.clone() for c in caches)
        runs.append(dhpfa.flash_attn_with_kvcache(q, kc, vc, *new, cache_seqlens=lens, **kw) + (kc, vc))
    # (the checked path until the build's launcher is kept: once or twice; then the plan)
    assert set(launched) == ({choice[1]} if choice else set()) and len(launched) <= 2, launched
    if choice:
        plans = [p for p in api._PLANS.values() if isinstance(p, api._KvcachePlan)]
        assert plans and isinstance(plans[0].varlen, api._SwapKv)
    out, lse, kc, vc = runs[0]
    for o, l_, kc2, vc2 in runs[1:]:
        assert torch.equal(o, out) and torch.equal(l_, lse) and torch.equal(kc2, kc) and torch.equal(vc2, vc)
    for i in range(b):
        lo = 0 if pad is None else min(pad[i], lens0[i] + s_new)
        n = min(lens0[i] + s_new, sc)
        if n - lo == 0:
            assert torch.equal(out[i].float(), torch.zeros_like(out[i].float())) and bool(torch.isinf(lse[i]).all())
            continue
        ref, ref_lse = attention_ref(q[i:i + 1], kc[i:i + 1, lo:n], vc[i:i + 1, lo:n], d ** -0.5)
        assert rel_err(out[i:i + 1], ref) < TOL[dtype], (i, n)
        assert torch.allclose(lse[i:i + 1].double().cpu(), ref_lse, rtol=1e-3, atol=1e-3), i
    # a CUDA graph's replay (the planned path under capture) gives the same bits
    kc, vc = (c.clone() for c in caches)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        dhpfa.flash_attn_with_kvcache(q, kc.clone(), vc.clone(), *new, cache_seqlens=lens, **kw)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        g_out, g_lse = dhpfa.flash_attn_with_kvcache(q, kc, vc, *new, cache_seqlens=lens, **kw)
    kc.copy_(caches[0])
    vc.copy_(caches[1])
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(g_out, out) and torch.equal(g_lse, lse)


@pytest.mark.gpu
@pytest.mark.parametrize("d,b,sc,page", [(128, 64, 1024, 256), (64, 48, 1024, 128), (128, 33, 2048, 512),
                                         (128, 34, 4096, 256), (64, 17, 8192, 512), (64, 35, 2048, 128),
                                         (128, 8, 4096, 256), (128, 1, 8192, 512), (64, 4, 2048, 128)])
def test_gpu_kvcache_paged_decode_on_the_whole_pair_form(monkeypatch, d, b, sc, page):
    """(Session 68; session 69 call 1: 3 passed, with SWAP_DECODE_KV_PAGED turned on in it; session 69: cases 4-6 the
    stream build's paged form, 7-9 the merged / split builds' (SWAP_DECODE_KV_PAGED_PARTS; every paged form prepared and
    off at session 69's end: turned on here); call 9: 9 passed.) One-query
    flash_attn_with_kvcache calls on a paged cache (shuffled pages, lengths 0 / 1 / odd / full, a new token) on the
    whole-pair KV-cache build's paged form where the rule gives it: every head of every sequence against float64 on
    poisoned outputs, the new token in its page, and the contiguous cache's call's outputs (the unpaged form: the same
    blocks in the same order)."""
    from dhpfa.kernels import dispatch
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED", True)
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED_PARTS", True)  # (session 69: prepared, off; cases 7-9)
    monkeypatch.setattr(api, "_PLANS", {})
    poison_api_outputs(monkeypatch)
    h, hk = 32, 8
    choice = variants.decode_kv_paged_choice(torch.bfloat16, d, b, h, hk, sc, page,
                                             dispatch.sm_count(torch.device("cuda")))
    assert choice is not None and choice[0].kernel.endswith("_kvp"), choice
    gen = torch.Generator().manual_seed(68 + d + b)
    kc, vc = ((torch.randn(b, sc, hk, d, generator=gen) * 2).to("cuda", torch.bfloat16) for _ in range(2))
    q = torch.randn(b, 1, h, d, generator=gen).to("cuda", torch.bfloat16)
    k_new, v_new = (torch.randn(b, 1, hk, d, generator=gen).to("cuda", torch.bfloat16) for _ in range(2))
    lens0 = [(i * 389) % sc for i in range(b)]
    lens0[0], lens0[-1] = 0, sc - 1
    lens = torch.tensor(lens0, dtype=torch.int32, device="cuda")
    n_pages = b * sc // page
    perm = torch.randperm(n_pages, generator=gen)
    inv = torch.argsort(perm).to("cuda")
    kp, vp = (t.reshape(n_pages, page, hk, d)[inv].clone() for t in (kc, vc))  # flat page f at perm[f]
    table = perm.reshape(b, sc // page).to("cuda", torch.int32)
    launched = []
    real = api._kvcache_swap
    monkeypatch.setattr(api, "_kvcache_swap", lambda *a: launched.append(a[6].kernel) or real(*a))
    out, lse = dhpfa.flash_attn_with_kvcache(q, kp, vp, k_new, v_new, cache_seqlens=lens, block_table=table,
                                             causal=True, return_softmax_lse=True)
    assert launched == [choice[0].kernel], launched
    kc2, vc2 = kc.clone(), vc.clone()
    out2, lse2 = dhpfa.flash_attn_with_kvcache(q, kc2, vc2, k_new, v_new, cache_seqlens=lens, causal=True,
                                               return_softmax_lse=True)
    # (the paged call's new token landed in its page: the pages read back in logical order equal the contiguous cache)
    assert torch.equal(kp[perm.to("cuda")].reshape(b, sc, hk, d), kc2)
    assert torch.allclose(out.float(), out2.float(), atol=2e-2, rtol=0) and torch.allclose(lse, lse2, atol=1e-3)
    for i in range(b):
        n = lens0[i] + 1
        ref, ref_lse = attention_ref(q[i:i + 1], kc2[i:i + 1, :n], vc2[i:i + 1, :n], d ** -0.5)
        assert rel_err(out[i:i + 1], ref) < TOL[torch.bfloat16], (i, n)
        assert torch.allclose(lse[i:i + 1].double().cpu(), ref_lse, rtol=1e-3, atol=1e-3), i


# (session 69) one case of each swap-kernel KV-cache form: (b, h, hk, cache rows, d, lengths, new tokens, leftpad,
# kind, page) (kind as _SWAP_KV's; page: a paged cache of that many rows a page)
_SWAP_KV_NAN = [(1, 32, 8, 8192, 128, [5000], 1, None, "split", 0),
                (4, 32, 8, 2048, 64, [0, 129, 2047, 1000], 0, [0, 5, 700, 999], "merged", 0),
                (64, 32, 8, 1024, 128, [(i * 131) % 1025 for i in range(64)], 1, None, "stream", 0),
                (34, 32, 8, 4096, 128, [(i * 1229) % 4096 for i in range(34)], 0, [(i * 11) % 700 for i in range(34)],
                 "flat", 0),
                (48, 32, 8, 1024, 64, [(i * 77) % 1024 for i in range(48)], 1, None, "stream", 256),
                (34, 32, 8, 4096, 128, [(i * 1229) % 4096 for i in range(34)], 1, None, "flat", 512),
                (8, 32, 8, 4096, 128, [4095, 1, 0, 129, 2048, 4000, 3333, 777], 1, None, "merged", 256),
                (1, 32, 8, 8192, 128, [5000], 0, None, "split", 512)]


@pytest.mark.gpu
@pytest.mark.parametrize("case", _SWAP_KV_NAN, ids=[f"{c[0]}x{c[1]}/{c[2]}-{c[3]}-d{c[4]}-{c[8]}" + (f"-p{c[9]}" if c[9]
                                                                                                     else "")
                                                     for c in _SWAP_KV_NAN])
def test_gpu_kvcache_swap_forms_read_no_row_past_the_keys(monkeypatch, case):
    """(Session 69.) The swap decode kernels' KV-cache forms with NaN in every cache row that holds no key (past each
    sequence's end, before its left-padded start; in a paged cache the rows past each sequence's end in its pages, and
    the unused pages), as flash-attn's kernels allow (rows that hold no key are never read, or read as zeros): every
    head of every sequence finite and against float64, on the build the rule names."""
    b, h, hk, sc, d, lens0, s_new, pad, kind, page = case
    from dhpfa.kernels import dispatch
    poison_api_outputs(monkeypatch)
    monkeypatch.setattr(api, "_PLANS", {})
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED", True)  # (prepared, off: the paged cases)
    monkeypatch.setattr(variants, "SWAP_DECODE_KV_PAGED_PARTS", True)
    dtype = torch.bfloat16
    gen = torch.Generator().manual_seed(69 + sc + d)
    kc, vc = ((torch.randn(b, sc, hk, d, generator=gen) * 2).to("cuda", dtype) for _ in range(2))
    q = torch.randn(b, 1, h, d, generator=gen).to("cuda", dtype)
    new = [torch.randn(b, s_new, hk, d, generator=gen).to("cuda", dtype) for _ in range(2)] if s_new else [None] * 2
    kw = dict(causal=True, return_softmax_lse=True)
    los, his = [], []
    for i in range(b):
        n = min(lens0[i] + s_new, sc)
        lo = 0 if pad is None else min(pad[i], n)
        los.append(lo)
        his.append(n)
        for t in (kc, vc):
            t[i, :lo] = float("nan")
            t[i, lens0[i]:] = float("nan")  # (the new tokens' rows are written by the call)
    if pad is not None:
        kw["cache_leftpad"] = torch.tensor(pad, dtype=torch.int32, device="cuda")
    sms = dispatch.sm_count(torch.device("cuda"))
    choice = variants.decode_kv_paged_choice(dtype, d, b, h, hk, sc, page, sms) if page else \
        variants.decode_kv_choice(dtype, d, b, h, hk, sc, sms)
    if sms == 132:
        assert choice is not None and choice[0].kernel.endswith(_kv_kind(kind) + ("_kvp" if page else "_kv")), choice
        assert (kind == "flat") == (kind in ("stream", "flat") and not variants.stream_pair_units(choice[0])), choice
    launched = []
    real = api._kvcache_swap
    monkeypatch.setattr(api, "_kvcache_swap", lambda *a: launched.append(a[4]) or real(*a))
    lens = torch.tensor(lens0, dtype=torch.int32, device="cuda")
    if page:
        n_pages = b * sc // page
        perm = torch.randperm(n_pages + 2, generator=gen)[:n_pages]  # (two unused pages, NaN)
        kp, vp = (torch.full((n_pages + 2, page, hk, d), float("nan"), dtype=dtype, device="cuda") for _ in range(2))
        kp[perm.to("cuda")] = kc.reshape(n_pages, page, hk, d)
        vp[perm.to("cuda")] = vc.reshape(n_pages, page, hk, d)
        table = perm.reshape(b, sc // page).to("cuda", torch.int32)
        out, lse = dhpfa.flash_attn_with_kvcache(q, kp, vp, *new, cache_seqlens=lens, block_table=table, **kw)
        kc = kp[perm.to("cuda")].reshape(b, sc, hk, d)
        vc = vp[perm.to("cuda")].reshape(b, sc, hk, d)
    else:
        out, lse = dhpfa.flash_attn_with_kvcache(q, kc, vc, *new, cache_seqlens=lens, **kw)
    assert launched == ([choice[1]] if choice else []), launched
    for i in range(b):
        if his[i] - los[i] == 0:
            assert torch.equal(out[i].float(), torch.zeros_like(out[i].float())) and bool(torch.isinf(lse[i]).all())
            continue
        ref, ref_lse = attention_ref(q[i:i + 1], kc[i:i + 1, los[i]:his[i]], vc[i:i + 1, los[i]:his[i]], d ** -0.5)
        assert bool(torch.isfinite(out[i]).all()), (i, los[i], his[i])
        assert rel_err(out[i:i + 1], ref) < TOL[dtype], (i, his[i])
        assert torch.allclose(lse[i:i + 1].double().cpu(), ref_lse, rtol=1e-3, atol=1e-3), i
