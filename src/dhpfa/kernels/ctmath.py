"""Constant-time building blocks shared by the attention kernels.

Everything here computes on secret values with straight-line arithmetic: masking is a select, never a
branch; the exponential and logarithm are the approximate hardware paths (MUFU.EX2, a branch-free
polynomial for log2); division is Triton's `div.full.f32` (MUFU.RCP with predicated range scaling, no
slow path). The auditor checks the SASS for each shipped kernel, so these claims are verified, not hoped.

`exp2_mixed_ptx` moves part of the softmax's exponentials from the special-function unit (MUFU, 16 per
clock per SM) to the FMA pipe (a straight-line polynomial): at head dim 64 the MUFU work of a tile
equals its tensor-core work, so the exponentials, not the GEMMs, set the pace.
"""
import triton
import triton.language as tl

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453


@triton.jit
def online_softmax_step(qk, qk_scale, m_i, l_i, acc, MASKED: tl.constexpr):
    """One step of the online softmax in the log2 domain.

    `qk` holds raw scores q.k (-inf where masked); `qk_scale` = softmax_scale * log2(e) > 0, so that
    max(qk) * qk_scale = max(qk * qk_scale) and each score costs one FFMA (qk * qk_scale - m).
    Returns (p, m_new, l_new, acc_scaled); the caller adds p @ V to acc_scaled.
    Rows that have seen no visible key keep m = -inf; subtracting a 0 in their place (a select) keeps
    every exp2 argument -inf instead of NaN, so such rows end with l = 0 and acc = 0.
    """
    m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
    if MASKED:
        m_sub = tl.where(m_new == float("-inf"), 0.0, m_new)
    else:
        m_sub = m_new
    p = tl.math.exp2(qk * qk_scale - m_sub[:, None])
    alpha = tl.math.exp2(m_i - m_sub)
    l_new = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None]
    return p, m_new, l_new, acc


@triton.jit
def finalize_rows(acc, m_i, l_i):
    """Normalise the accumulator and form the natural-log LSE; empty rows give 0 and -inf, never NaN."""
    empty = l_i == 0.0
    l_safe = tl.where(empty, 1.0, l_i)
    inv_l = 1.0 / l_safe  # one reciprocal per row, then multiplies
    out = acc * inv_l[:, None]
    lse = tl.where(empty, float("-inf"), (m_i + tl.math.log2(l_safe)) * 0.6931471805599453)
    return out, lse


# 2^f on [0, 1] as 1 + f * (C1 + f * (C2 + f * C3)): minimax relative error 9.5e-5 (fp32 coefficients,
# Horner in fp32; fitted by Lawson iterations, tests/test_ctmath.py checks the bound), under bf16's and
# fp16's rounding of P (3.9e-3, 4.9e-4).
EXP2_POLY = (0x3F31F025, 0x3E691D57, 0x3D9DFD49)  # C1, C2, C3 as fp32 bit patterns


def exp2_poly_reference(x):
    """What the PTX of exp2_mixed_ptx computes for one emulated element, in numpy fp32 (for tests)."""
    import numpy as np
    x = np.asarray(x, dtype=np.float32)
    c1, c2, c3 = (np.array(c, dtype=np.uint32).view(np.float32) for c in EXP2_POLY)
    with np.errstate(invalid="ignore", over="ignore"):
        xc = np.where(np.isnan(x), x, np.maximum(x, np.float32(-127.0)))
        fi = np.floor(xc).astype(np.float32)
        f = (xc - fi).astype(np.float32)
        p = np.float32(c3) * f + np.float32(c2)
        p = p * f + np.float32(c1)
        p = p * f + np.float32(1.0)
        scale = np.where(np.isnan(fi), np.float32(1.0),
                         np.ldexp(np.float32(1.0), np.nan_to_num(fi).astype(np.int32)))
        scale = np.where(np.nan_to_num(fi) <= -127, np.float32(0.0), scale).astype(np.float32)
        return (p * scale).astype(np.float32)


def exp2_mixed_ptx(n_poly: int, pack: int = 4) -> str:
    """PTX for `inline_asm_elementwise(..., pack=pack)` on fp32 x <= 0 (softmax arguments; -inf and NaN
    allowed): 2^x for each of `pack` elements, the first `n_poly` by the polynomial, the rest by
    ex2.approx.ftz (MUFU.EX2, as tl.exp2). No branch, no data-dependent address: the same instructions
    run for every value. The polynomial path: x' = max.NaN(x, -127) (NaN stays NaN); floor(x') from one
    add rounding toward -inf of 1.5 * 2^23 (the integer lands in the low mantissa bits); f = x' - floor(x')
    in [0, 1]; 2^floor(x') built in the exponent bits, which is 0.0 at -127 so that -inf gives exactly 0
    (rows with no visible key keep l = 0); explicit .rn so ptxas does not contract the arithmetic."""
    c1, c2, c3 = (f"0f{c:08X}" for c in EXP2_POLY)
    lines = []
    for i in range(pack):
        out, inp = f"${i}", f"${pack + i}"
        if i < n_poly:
            lines += ["{", ".reg .b32 x, t, fi, f, p, e;",
                      f"max.NaN.f32 x, {inp}, 0fC2FE0000;",
                      "add.rm.f32 t, x, 0f4B400000;",
                      "sub.rn.f32 fi, t, 0f4B400000;",
                      "sub.rn.f32 f, x, fi;",
                      f"fma.rn.f32 p, f, {c3}, {c2};",
                      f"fma.rn.f32 p, p, f, {c1};",
                      "fma.rn.f32 p, p, f, 0f3F800000;",
                      "shl.b32 e, t, 23;",
                      "add.s32 e, e, 1065353216;",
                      f"mul.rn.f32 {out}, p, e;", "}"]
        else:
            lines.append(f"ex2.approx.ftz.f32 {out}, {inp};")
    return "\n".join(lines)


def exp2_mixed_constraints(pack: int = 4) -> str:
    return ",".join(["=r"] * pack + ["r"] * pack)
