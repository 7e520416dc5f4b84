"""The API's call plans (api._PLANS): a call whose signature (types, shapes, strides, dtypes, devices, flags)
was checked once skips the metadata checks and the choice; what can change between calls with one
signature (base addresses, requires_grad, the tuner's choices) is still checked on every call."""
import os
import types

import pytest
import torch

import dhpfa
from dhpfa import api
from dhpfa.reference import attention_ref_rows

pytestmark = pytest.mark.interpreter


def qkv(sq=16, sk=16, d=64, dtype=torch.float16, seed=0):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(1, s, 2, d, generator=g).to(dtype) for s in (sq, sk, sk))


@pytest.fixture
def counted_checks(monkeypatch):
    """Counts the calls of the full metadata check (api._check_inputs)."""
    api._PLANS.clear()
    calls = []
    real = api._check_inputs

    def counting(*a, **kw):
        calls.append(1)
        return real(*a, **kw)
    monkeypatch.setattr(api, "_check_inputs", counting)
    return calls


def test_repeated_signature_skips_the_checks_and_stays_correct(counted_checks):
    q, k, v = qkv()
    first = dhpfa.flash_attn_func(q, k, v, causal=True)
    q2, k2, v2 = qkv(seed=1)  # same signature, other tensors and values
    out = dhpfa.flash_attn_func(q2, k2, v2, causal=True)
    assert len(counted_checks) == 1
    ref, _ = attention_ref_rows(q2, k2, v2, 64 ** -0.5, 0, 0, 1, torch.arange(16))
    assert float((out[0, :, 1].double() - ref).norm() / ref.norm()) < 2e-3
    assert not torch.equal(out, first)
    # another signature: other strides, dtype, flag, scale type, or entry point
    dhpfa.flash_attn_func(q2, k2, v2, causal=False)
    dhpfa.flash_attn_func(q2.float(), k2.float(), v2.float(), causal=True)
    dhpfa.flash_attn_func(q2, k2, v2, causal=True, softmax_scale=1)
    dhpfa.flash_attn_func(q2, k2, v2, causal=True, softmax_scale=1.0)
    dhpfa.scaled_dot_product_attention(q2.transpose(1, 2), k2.transpose(1, 2), v2.transpose(1, 2))
    wide = torch.zeros(1, 16, 2, 80, dtype=q.dtype)[..., :64]
    wide.copy_(k2)
    dhpfa.flash_attn_func(q2, wide, v2, causal=True)
    assert len(counted_checks) == 7
    dhpfa.scaled_dot_product_attention(q2.transpose(1, 2), k2.transpose(1, 2), v2.transpose(1, 2))
    assert len(counted_checks) == 7


def test_per_call_checks_hold_on_a_known_signature(counted_checks):
    q, k, v = qkv()
    dhpfa.flash_attn_func(q, k, v)
    # a misaligned base with the same shape and strides
    flat = torch.zeros(v.numel() + 1, dtype=v.dtype)
    vm = flat[1:].view(v.shape)
    with pytest.raises(ValueError, match=r"^v: data pointer must be 16-byte aligned"):
        dhpfa.flash_attn_func(q, k, vm)
    # requires_grad
    with pytest.raises(RuntimeError, match="no backward pass yet"):
        dhpfa.flash_attn_func(q.clone().requires_grad_(), k, v)
    # a flag or scale of the wrong type after a good call with an equal value
    dhpfa.flash_attn_func(q, k, v, causal=True, softmax_scale=1.0)
    with pytest.raises(TypeError, match=r"^causal: expected a bool, got int"):
        dhpfa.flash_attn_func(q, k, v, causal=1, softmax_scale=1.0)
    with pytest.raises(TypeError, match=r"^softmax_scale: expected a Python float or None, got bool"):
        dhpfa.flash_attn_func(q, k, v, causal=True, softmax_scale=True)
    # SDPA: a head-count mismatch is refused without enable_gqa after a call with it
    q4 = torch.randn(1, 4, 16, 64).half()
    dhpfa.scaled_dot_product_attention(q4, k.transpose(1, 2), v.transpose(1, 2), enable_gqa=True)
    with pytest.raises(ValueError, match="pass enable_gqa=True"):
        dhpfa.scaled_dot_product_attention(q4, k.transpose(1, 2), v.transpose(1, 2))


def test_a_new_tuner_choice_retires_the_plans(monkeypatch):
    """A plan made from tune.choose holds the tuner's generation; once the tuner chooses again (or its
    memory is cleared) the plan no longer applies and the next call chooses again."""
    fake = types.SimpleNamespace(generation=3)
    monkeypatch.setattr(api, "_tune", fake)
    q, k, v = qkv()
    sig = api._signature("flash", q, k, v, False, None)
    monkeypatch.setitem(api._PLANS, sig, api._Plan("variant", 0.125, 0, 3, False))
    assert api._cached_plan(sig, q, k, v) is api._PLANS[sig]
    fake.generation = 4
    assert api._cached_plan(sig, q, k, v) is None
    from dhpfa import tune
    g = tune.generation
    tune.clear_memory()
    assert tune.generation == g + 1


def test_signatures_follow_the_environment_switches(monkeypatch):
    """The call plans' signatures carry the environment switches the choice reads (api._env_switches: os.environ's own
    mapping, session 35): setting, changing and removing each gives a new signature, restoring it the old one."""
    from dhpfa.settings import AUTOTUNE_ENV, CACHE_ENV, INTERPRET_ENV
    q = torch.empty(1, 4, 2, 32)
    for name in (INTERPRET_ENV, CACHE_ENV, AUTOTUNE_ENV):
        monkeypatch.delenv(name, raising=False)
        base = api._signature("flash", q, q, q, False, None)
        monkeypatch.setenv(name, "1")
        one = api._signature("flash", q, q, q, False, None)
        monkeypatch.setenv(name, "0")
        zero = api._signature("flash", q, q, q, False, None)
        monkeypatch.delenv(name)
        assert len({base, one, zero}) == 3 and api._signature("flash", q, q, q, False, None) == base, name
        got = [x.decode() if isinstance(x, bytes) else x for x in api._env_switches()]
        assert got == [os.environ.get(n) for n in (INTERPRET_ENV, CACHE_ENV, AUTOTUNE_ENV)], name
