"""The constant-time building blocks of kernels/ctmath.py: the polynomial exp2 (its accuracy and special
values on CPU, through a numpy model of its PTX; the PTX itself on the GPU)."""
import math
import re

import numpy as np
import pytest
import torch

from dhpfa.kernels import ctmath


def test_exp2_poly_accuracy_and_special_values():
    rng = np.random.default_rng(0)
    x = np.concatenate([-rng.random(200_000) * 126, -rng.random(10_000) * 1e-6, np.arange(-126, 1)])
    x = x.astype(np.float32)
    got = ctmath.exp2_poly_reference(x).astype(np.float64)
    ref = np.exp2(x.astype(np.float64))
    assert np.max(np.abs(got / ref - 1)) < 1e-4
    # exact where the softmax needs it: the row maximum gives 1, masked scores give 0, NaN stays NaN
    special = ctmath.exp2_poly_reference(np.array([0.0, -np.inf, -127.0, -500.0, np.nan], np.float32))
    assert special[0] == 1.0 and np.all(special[1:4] == 0.0) and np.isnan(special[4])


def test_exp2_poly_accuracy_bound_is_tight():
    """The bound above can fail: a coefficient off by 1e-3 breaks it."""
    c1, c2, c3 = ctmath.EXP2_POLY
    x = -np.linspace(0, 1, 10001, dtype=np.float32)
    ref = np.exp2(x.astype(np.float64))
    saved = ctmath.EXP2_POLY
    try:
        ctmath.EXP2_POLY = (int(np.float32(np.uint32(c1).view(np.float32) * 1.001).view(np.uint32)), c2, c3)
        bad = ctmath.exp2_poly_reference(x).astype(np.float64)
    finally:
        ctmath.EXP2_POLY = saved
    assert np.max(np.abs(bad / ref - 1)) > 1e-4


@pytest.mark.parametrize("n_poly", [0, 1, 2, 4])
def test_exp2_mixed_ptx_shape(n_poly):
    ptx = ctmath.exp2_mixed_ptx(n_poly)
    assert ptx.count("max.NaN.f32") == n_poly and ptx.count("ex2.approx.ftz.f32") == 4 - n_poly
    # straight-line: no branch, no predicate, no memory access
    assert not re.search(r"\bbra\b|@|\bld\.|\bst\.|setp", ptx)
    outs = sorted(set(re.findall(r"\$(\d+)", ptx)), key=int)
    assert outs == [str(i) for i in range(8)]
    assert ctmath.exp2_mixed_constraints().count("=r") == 4


@pytest.mark.gpu
def test_exp2_mixed_ptx_on_gpu():
    """The PTX of every lane of a pack against float64 (rel. error < 1e-4), with the special values."""
    import triton
    import triton.language as tl

    @triton.jit
    def k(X, Y, N, ASM: tl.constexpr, CONS: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(X + offs, mask=offs < N, other=0.0)
        y = tl.inline_asm_elementwise(ASM, CONS, [x], dtype=tl.float32, is_pure=True, pack=4)
        tl.store(Y + offs, y, mask=offs < N)

    g = torch.Generator(device="cuda").manual_seed(0)
    x = -torch.rand(1 << 20, device="cuda", generator=g) * 126
    x[:8] = torch.tensor([0.0, -float("inf"), float("nan"), -127.5, 0.0, -1e-9, -126.0, -3.0])
    for n_poly in (1, 4):
        y = torch.full_like(x, 7.0)
        k[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), ctmath.exp2_mixed_ptx(n_poly),
                                          ctmath.exp2_mixed_constraints(), 1024)
        ref = torch.exp2(x.double())
        fin = torch.isfinite(x) & (x > -126)
        assert float(((y.double() - ref).abs() / ref)[fin].max()) < 1e-4
        assert y[0] == 1.0 and y[1] == 0.0 and math.isnan(float(y[2])) and y[3] == 0.0
