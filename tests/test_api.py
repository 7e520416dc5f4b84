"""Argument checks: each kind of bad input gets a clear error that names the argument."""
import pytest
import torch

import dhpfa

pytestmark = pytest.mark.interpreter


def qkv(b=1, sq=16, sk=16, h=2, hk=2, d=64, dtype=torch.float16):
    return (torch.randn(b, sq, h, d).to(dtype), torch.randn(b, sk, hk, d).to(dtype),
            torch.randn(b, sk, hk, d).to(dtype))


def raises(exc, match, fn, *args, **kw):
    with pytest.raises(exc, match=match):
        fn(*args, **kw)


def test_not_a_tensor():
    q, k, v = qkv()
    raises(TypeError, r"^q: expected a torch.Tensor, got list", dhpfa.flash_attn_func, [1], k, v)


def test_wrong_ndim():
    q, k, v = qkv()
    raises(ValueError, r"^k: expected a 4-D tensor \(batch, seqlen, heads, head_dim\)",
           dhpfa.flash_attn_func, q, k[0], v)


def test_zero_sized_dimension():
    q, k, v = qkv(sq=16)
    raises(ValueError, r"^q: every dimension must be >= 1", dhpfa.flash_attn_func, q[:, :0], k, v)


def test_wrong_device(monkeypatch):
    q, k, v = qkv()
    monkeypatch.setenv("TRITON_INTERPRET", "0")
    raises(ValueError, r"^q: expected a CUDA tensor, got device cpu", dhpfa.flash_attn_func, q, k, v)


def test_meta_device_under_interpreter():
    q, k, v = qkv()
    raises(ValueError, r"^v: under TRITON_INTERPRET=1 tensors must be on the CPU, got meta",
           dhpfa.flash_attn_func, q, k, v.to("meta"))


@pytest.mark.parametrize("dtype", [torch.float64, torch.int32])
def test_unsupported_dtype(dtype):
    q, k, v = qkv()
    raises(TypeError, r"^q: expected dtype float16 or bfloat16", dhpfa.flash_attn_func,
           q.to(dtype), k.to(dtype), v.to(dtype))


def test_float32_only_in_interpreter(monkeypatch):
    q, k, v = qkv(dtype=torch.float32)
    monkeypatch.setenv("TRITON_INTERPRET", "0")
    # device is checked first; a CPU tensor outside the interpreter is refused for its device
    raises(ValueError, r"^q: expected a CUDA tensor", dhpfa.flash_attn_func, q, k, v)


def test_mismatched_dtype():
    q, k, v = qkv()
    raises(TypeError, r"^k: expected dtype torch.float16 \(that of q\), got torch.bfloat16",
           dhpfa.flash_attn_func, q, k.bfloat16(), v)


def test_unsupported_head_dim():
    q, k, v = qkv(d=48)
    raises(ValueError, r"^q: head_dim 48 is not supported; expected one of \(32, 64, 96, 128, 192, 256\)",
           dhpfa.flash_attn_func, q, k, v)


def test_batch_mismatch():
    q, _, _ = qkv(b=2)
    _, k, v = qkv(b=1)
    raises(ValueError, r"^k, v: expected batch size 2 \(that of q\)", dhpfa.flash_attn_func, q, k, v)


def test_head_dim_mismatch():
    q, _, _ = qkv(d=64)
    _, k, v = qkv(d=128)
    raises(ValueError, r"^k, v: expected head_dim 64", dhpfa.flash_attn_func, q, k, v)


def test_v_shape_differs_from_k():
    q, k, _ = qkv(sk=16)
    _, _, v = qkv(sk=20)
    raises(ValueError, r"^v: expected the shape of k", dhpfa.flash_attn_func, q, k, v)


def test_kv_heads_must_divide_q_heads():
    q, k, v = qkv(h=3, hk=2)
    raises(ValueError, r"^k: number of key/value heads \(2\) must divide the number of query heads \(3\)",
           dhpfa.flash_attn_func, q, k, v)


def test_last_dim_not_contiguous():
    q, k, v = qkv()
    qt = q.transpose(2, 3).contiguous().transpose(2, 3)
    raises(ValueError, r"^q: the last \(head_dim\) dimension must be contiguous", dhpfa.flash_attn_func, qt, k, v)


def test_stride_not_multiple_of_16():
    q, k, v = qkv()
    wide = torch.zeros(*k.shape[:3], 72, dtype=k.dtype)
    raises(ValueError, r"^k: stride of dimension 2 must be a multiple of 16 elements, got 72",
           dhpfa.flash_attn_func, q, wide[..., :64], v)


def test_misaligned_pointer():
    q, k, v = qkv()
    flat = torch.zeros(v.numel() + 1, dtype=v.dtype)
    vm = flat[1:].view(v.shape)
    raises(ValueError, r"^v: data pointer must be 16-byte aligned", dhpfa.flash_attn_func, q, k, vm)


@pytest.mark.parametrize("scale,exc,match", [("0.1", TypeError, "expected a Python float or None, got str"),
                                             (float("nan"), ValueError, "expected a finite number > 0"),
                                             (-0.5, ValueError, "expected a finite number > 0, got -0.5"),
                                             (True, TypeError, "expected a Python float or None, got bool")])
def test_bad_softmax_scale(scale, exc, match):
    q, k, v = qkv()
    raises(exc, r"^softmax_scale: " + match, dhpfa.flash_attn_func, q, k, v, softmax_scale=scale)


def test_causal_must_be_bool():
    q, k, v = qkv()
    raises(TypeError, r"^causal: expected a bool, got int", dhpfa.flash_attn_func, q, k, v, causal=1)


def test_requires_grad_is_refused():
    q, k, v = qkv()
    raises(RuntimeError, r"no backward pass yet", dhpfa.flash_attn_func, q.requires_grad_(), k, v)
    with torch.no_grad():
        assert dhpfa.flash_attn_func(q, k, v).shape == q.shape


@pytest.mark.parametrize("kw,exc,match", [
    (dict(dropout_p=0.1), NotImplementedError, r"^dropout_p: dropout is not supported .* got 0.1 \(flash-attn's"),
    (dict(dropout_p=None), TypeError, r"^dropout_p: expected a float, got NoneType \(flash-attn's argument order"),
    (dict(dropout_p=False), TypeError, r"^dropout_p: expected a float, got bool"),
    (dict(window_size=None), TypeError, r"^window_size: expected a pair of ints"),
    (dict(window_size=(4, 0.5)), TypeError, r"^window_size: expected a pair of ints"),
    (dict(softcap=float("inf")), ValueError, r"^softcap: expected a finite number >= 0 \(0: off\), got inf"),
    (dict(alibi_slopes=torch.ones(2)), NotImplementedError, r"^alibi_slopes: ALiBi biases are not supported")])
def test_flash_attn_options_not_implemented_are_refused(kw, exc, match):
    """flash-attn's options dhpfa does not implement (dropout, ALiBi): any value but the default (which changes
    nothing) is an error that names the argument; never silently ignored. Malformed windows and soft-caps too."""
    q, k, v = qkv()
    raises(exc, match, dhpfa.flash_attn_func, q, k, v, **kw)


def test_flash_attn_positional_order_and_return_attn_probs():
    """flash-attn's argument order (q, k, v, dropout_p, softmax_scale, causal, ...), as Hugging Face transformers'
    flash-attention path calls it (dropout positional, the rest by keyword), gives the same bits as keywords; the
    defaults of the options dhpfa does not implement are accepted (window_size (-1, 0) with causal: the same mask);
    return_attn_probs returns (out, lse, None), the lse that return_lse returns. A wrong scale would show: the two
    scales below differ."""
    g = torch.Generator().manual_seed(7)
    q, k, v = (torch.randn(1, n, 2, 64, generator=g).half() for n in (11, 19, 19))
    ref, lse = dhpfa.flash_attn_func(q, k, v, softmax_scale=0.2, causal=True, return_lse=True)
    assert torch.equal(dhpfa.flash_attn_func(q, k, v, 0.0, 0.2, True), ref)
    assert torch.equal(dhpfa.flash_attn_func(q, k, v, 0.0, softmax_scale=0.2, causal=True, window_size=(-1, 0),
                                             softcap=0.0, alibi_slopes=None, deterministic=True), ref)
    out3, lse3, probs = dhpfa.flash_attn_func(q, k, v, 0, 0.2, True, return_attn_probs=True)
    assert torch.equal(out3, ref) and torch.equal(lse3, lse) and probs is None
    assert not torch.equal(dhpfa.flash_attn_func(q, k, v, 0.0, 0.1, True), ref)


def test_packed_qkv_and_kv_match_separate_tensors():
    """flash-attn's packed layouts: qkv (B, S, 3, H, D) and kv (B, Sk, 2, H_kv, D) (grouped heads, Sq != Sk) give the
    bits of the same call on the unpacked views; a wrong stacking dimension is refused with the expected layout."""
    g = torch.Generator().manual_seed(11)
    qkv = torch.randn(2, 13, 3, 2, 64, generator=g).half()
    out, lse = dhpfa.flash_attn_qkvpacked_func(qkv, 0.0, 0.15, True, return_lse=True)
    ref, ref_lse = dhpfa.flash_attn_func(qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2], softmax_scale=0.15, causal=True,
                                         return_lse=True)
    assert torch.equal(out, ref) and torch.equal(lse, ref_lse)
    q = torch.randn(1, 5, 4, 64, generator=g).half()
    kv = torch.randn(1, 17, 2, 2, 64, generator=g).half()
    assert torch.equal(dhpfa.flash_attn_kvpacked_func(q, kv, causal=True),
                       dhpfa.flash_attn_func(q, kv[:, :, 0], kv[:, :, 1], causal=True))
    raises(ValueError, r"^kv: expected a 5-D tensor \(batch, seqlen, 2, heads, head_dim\), got shape \(1, 17, 3",
           dhpfa.flash_attn_kvpacked_func, q, torch.cat([kv, kv[:, :, :1]], 2))
    raises(TypeError, r"^qkv: expected a torch.Tensor, got tuple", dhpfa.flash_attn_qkvpacked_func, (q, q, q))


class TestSdpa:
    def args(self, h=2, hk=2):
        q, k, v = qkv(h=h, hk=hk)
        return q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)

    def test_attn_mask_refused(self):
        q, k, v = self.args()
        raises(NotImplementedError, r"^attn_mask:", dhpfa.scaled_dot_product_attention, q, k, v,
               attn_mask=torch.ones(16, 16, dtype=torch.bool))

    def test_dropout_refused(self):
        q, k, v = self.args()
        raises(NotImplementedError, r"^dropout_p: only 0.0", dhpfa.scaled_dot_product_attention, q, k, v,
               dropout_p=0.1)

    def test_gqa_needs_enable_gqa(self):
        q, k, v = self.args(h=4, hk=2)
        raises(ValueError, r"^key: 2 key/value heads differ from 4 query heads; pass enable_gqa=True",
               dhpfa.scaled_dot_product_attention, q, k, v)

    def test_errors_name_sdpa_arguments(self):
        q, k, v = self.args()
        raises(TypeError, r"^value: expected dtype torch.float16 \(that of query\)",
               dhpfa.scaled_dot_product_attention, q, k, v.bfloat16())
        raises(ValueError, r"^query: expected a 4-D tensor \(batch, heads, seqlen, head_dim\)",
               dhpfa.scaled_dot_product_attention, q[0], k, v)


def test_tile_class_depends_only_on_public_shape():
    from dhpfa.kernels import variants
    assert variants.select(torch.bfloat16, 128, False, False, seq_k=4096).config.block_m == 64
    assert variants.select(torch.bfloat16, 128, False, False, seq_k=4097).config.block_m == 128
    assert variants.select(torch.bfloat16, 128, True, False, seq_k=8192).config.block_m == 64
    assert variants.select(torch.bfloat16, 128, True, False, seq_k=16384).config.block_m == 128
    assert variants.select(torch.bfloat16, 256, True, False, seq_k=16384).config.block_m == 64
    shipped = {(v.kernel, v.config, v.dtype, v.head_dim, v.causal) for v in variants.shipped_variants()}
    for d in variants.HEAD_DIMS:
        for causal in (False, True):
            for s in (1, 4096, 8192, 16384, 131072):
                for sm90 in (False, True):
                    v = variants.select(torch.float16, d, causal, False, seq_k=s, sm90=sm90)
                    assert (v.kernel, v.config, v.dtype, v.head_dim, v.causal) in shipped, \
                        "dispatch only to audited variants"
                    gluon = d in (96, 128, 192, 256) or (d == 64 and s > (4096 if causal else 1024))
                    assert (v.kernel in variants.GLUON_KERNELS) == (sm90 and gluon)
                    assert v.config.persistent == (sm90 and gluon)
                    if sm90 and d in variants.PADDED_HEAD_DIMS:  # D=96 / 192 run D=128 / 256's builds, padded
                        same = variants.select(torch.float16, variants.PADDED_HEAD_DIMS[d], causal, False, seq_k=s,
                                               sm90=True)
                        assert (v.kernel, v.config) == (same.kernel, same.config)
                    if sm90 and d == 128 and causal:  # 64-key blocks for short causal tiles
                        assert v.config.block_n == (64 if s <= 512 else 128)


def test_gluon_kernel_only_on_hopper_and_never_in_the_interpreter():
    from dhpfa.kernels import variants
    assert variants.select(torch.bfloat16, 128, False, False, seq_k=2048, sm90=True).kernel == "attn_fwd_sm90_ws"
    assert variants.select(torch.bfloat16, 128, False, False, seq_k=2048, sm90=False).kernel != "attn_fwd_sm90_ws"
    assert variants.select(torch.bfloat16, 256, True, False, seq_k=512, sm90=True).kernel == "attn_fwd_sm90_ws"
    assert variants.select(torch.bfloat16, 64, True, False, seq_k=16384, sm90=True).kernel == "attn_fwd_sm90_ws"
    assert variants.select(torch.bfloat16, 64, True, False, seq_k=4096, sm90=True).kernel != "attn_fwd_sm90_ws"
    assert variants.select(torch.bfloat16, 64, True, False, seq_k=4097, sm90=True).kernel == "attn_fwd_sm90_ws"
    assert variants.select(torch.bfloat16, 64, False, False, seq_k=16384, sm90=True).kernel == "attn_fwd_sm90_ws"
    assert variants.select(torch.bfloat16, 64, False, False, seq_k=1024, sm90=True).kernel != "attn_fwd_sm90_ws"
    assert variants.select(torch.bfloat16, 64, False, False, seq_k=1025, sm90=True).config.split == 3
    assert variants.select(torch.bfloat16, 128, True, False, seq_k=512, sm90=True).kernel == "attn_fwd_sm90_ws"
    assert variants.select(torch.bfloat16, 128, False, True, seq_k=2048, sm90=True).kernel != "attn_fwd_sm90_ws"
    assert not dhpfa.api._is_sm90(torch.device("cpu"))


def test_sdpa_stride_error_names_the_callers_dimension():
    q, k, v = TestSdpa().args()
    wide = torch.zeros(*v.shape[:3], 72, dtype=v.dtype)  # (B, H, S, 72): S stride 72 in the caller's layout
    raises(ValueError, r"^value: stride of dimension 2 must be a multiple of 16 elements, got 72 "
           r"\(strides \(\d+, \d+, 72, 1\)\)", dhpfa.scaled_dot_product_attention, q, k, wide[..., :64])
