"""Constant-time building blocks shared by the attention kernels.

Everything here computes on secret values with straight-line arithmetic: masking is a select, never a
branch; the exponential and logarithm are the approximate hardware paths (MUFU.EX2, a branch-free
polynomial for log2); division is Triton's `div.full.f32` (MUFU.RCP with predicated range scaling, no
slow path). The auditor checks the SASS for each shipped kernel, so these claims are verified, not hoped.
"""
import triton
import triton.language as tl

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453

# exp2 on the FMA pipe (FlashAttention-4's trick, here for Hopper): MUFU.EX2 runs 16 lanes a clock per SM,
# and at head dim 64 a block's exponentials take as long on it as the block's GEMMs on the tensor cores.
# Some of a thread's exponentials can go to the FMA/ALU pipes instead: 2^x = 2^round(x) * 2^f with
# f = x - round(x) in [-1/2, 1/2], 2^f by a degree-3 polynomial (minimax for relative error, 7.5e-5 at
# most: below bf16's and fp16's rounding of P), 2^round(x) by adding round(x) to the exponent bits.
# Straight-line arithmetic, fixed latency: no branch, no table. x is clamped at -125 first (so the exponent
# stays normal; 2^-125 where 2^x would be smaller, below any bf16/fp16 P's effect on a row that has a
# visible key: only unmasked blocks use it, where every row has one); max.NaN keeps a NaN a NaN.
EXP2_POLY = (0x3F7FFB49, 0x3F31798D, 0x3E786F0F, 0x3D61FBAC)  # c0..c3 (float32 bits) of 2^f on [-1/2, 1/2]
EXP2_PACK = 8  # elements of a thread per asm block: the last `emulated` of each 8 take the polynomial


def exp2_asm(emulated: int, pack: int = EXP2_PACK) -> str:
    """PTX for `pack` exponentials (outputs $0.., inputs $pack..): MUFU.EX2 for the first pack - emulated,
    the polynomial for the rest (all registers .b32, which PTX lets float instructions take)."""
    if not 0 <= emulated <= pack:
        raise ValueError(f"emulated must be in 0..{pack}, got {emulated}")
    c0, c1, c2, c3 = (f"0f{c:08X}" for c in EXP2_POLY)
    lines = ["{", ".reg .b32 ex2x, ex2t, ex2f, ex2p, ex2j;"]
    for k in range(pack):
        out, arg = f"${k}", f"${pack + k}"
        if k < pack - emulated:
            lines.append(f"ex2.approx.ftz.f32 {out}, {arg};")
            continue
        lines += [f"max.NaN.f32 ex2x, {arg}, 0fC2FA0000;",     # clamp at -125
                  "add.rn.f32 ex2t, ex2x, 0f4B400000;",        # + 1.5 * 2^23: round(x) in the low bits
                  "sub.rn.f32 ex2f, ex2t, 0f4B400000;",        # round(x)
                  "sub.rn.f32 ex2f, ex2x, ex2f;",              # f in [-1/2, 1/2]
                  f"fma.rn.f32 ex2p, ex2f, {c3}, {c2};",
                  f"fma.rn.f32 ex2p, ex2p, ex2f, {c1};",
                  f"fma.rn.f32 ex2p, ex2p, ex2f, {c0};",
                  "shl.b32 ex2j, ex2t, 23;",                   # round(x) << 23 (the magic's low bits are 0)
                  f"add.s32 {out}, ex2p, ex2j;"]
    lines.append("}")
    return "\n".join(lines)


EXP2_CONSTRAINTS = ",".join(["=r"] * EXP2_PACK + ["r"] * EXP2_PACK)


def exp2_poly_model(x):
    """The polynomial path of exp2_asm on a float32 numpy array, operation by operation (tests compare it
    with exp2; fma rounds once: the product of two float32 is exact in float64)."""
    import numpy as np
    f32 = np.float32
    c0, c1, c2, c3 = (np.array(c, dtype=np.uint32).view(np.float32) for c in EXP2_POLY)
    x = np.asarray(x, dtype=np.float32)
    xc = np.where(np.isnan(x), x, np.maximum(x, f32(-125.0))).astype(np.float32)
    t = (xc + f32(12582912.0)).astype(np.float32)
    f = (xc - (t - f32(12582912.0)).astype(np.float32)).astype(np.float32)

    def fma(a, b, c):
        return (a.astype(np.float64) * np.float64(b) + np.float64(c)).astype(np.float32)
    p = fma(fma(fma(f, c3, c2), f, c1), f, c0)
    j = (t.view(np.uint32) << np.uint32(23)).astype(np.uint32)
    return (p.view(np.uint32) + j).astype(np.uint32).view(np.float32)


_EXP2_EMU_1, _EXP2_EMU_2, _EXP2_EMU_3 = (tl.constexpr(exp2_asm(e)) for e in (1, 2, 3))
_EXP2_PACK = tl.constexpr(EXP2_PACK)
_EXP2_CONSTRAINTS = tl.constexpr(EXP2_CONSTRAINTS)


@triton.jit
def exp2_mixed(x, EMU: tl.constexpr):
    """2^x with EMU of every EXP2_PACK exponentials of a thread on the FMA pipe (exp2_asm; GPU only, not the
    interpreter; for unmasked blocks only: it gives 2^-125, not 0, at -inf)."""
    if EMU == 0:
        return tl.math.exp2(x)
    elif EMU == 1:
        return tl.inline_asm_elementwise(_EXP2_EMU_1, _EXP2_CONSTRAINTS, [x], dtype=tl.float32, is_pure=True,
                                         pack=_EXP2_PACK)
    elif EMU == 2:
        return tl.inline_asm_elementwise(_EXP2_EMU_2, _EXP2_CONSTRAINTS, [x], dtype=tl.float32, is_pure=True,
                                         pack=_EXP2_PACK)
    else:
        tl.static_assert(EMU == 3, "EXP2_EMU: 0 to 3 of every 8 exponentials")
        return tl.inline_asm_elementwise(_EXP2_EMU_3, _EXP2_CONSTRAINTS, [x], dtype=tl.float32, is_pure=True,
                                         pack=_EXP2_PACK)


@triton.jit
def online_softmax_step(qk, qk_scale, m_i, l_i, acc, MASKED: tl.constexpr, EMU: tl.constexpr = 0):
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
    if MASKED:
        p = tl.math.exp2(qk * qk_scale - m_sub[:, None])
    else:  # EMU of every 8 exponentials on the FMA pipe (exp2_mixed)
        p = exp2_mixed(qk * qk_scale - m_sub[:, None], EMU)
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
