"""Portable Triton forward kernel for exact attention, written to the constant-time rules.

Public values (shapes, strides, flags, program ids) alone decide every loop bound, address and
predicate of a branch or memory operation. The KV loop is split by public bounds into blocks that every
row of the Q tile sees in full (no mask at all) and boundary blocks (causal diagonal, ragged tail)
where visibility is applied by a select to -inf. Tensor data only ever flows through arithmetic.
"""
import itertools
import os

import torch
import triton
import triton.language as tl

from .block_info import kv_bounds, kv_bounds_rows, mask_scores, mask_window, query_tile, query_tile_magic, \
    window_bounds
from .ctmath import LOG2E, finalize_rows, online_softmax_step, tanh_ct, tanh_mufu
from .variants import VARLEN_INTERPRETER

# Integer shape arguments are not specialised, so one binary serves every sequence length and head
# count: the set of binaries is exactly the variant list the auditor reads (see variants.py).
SHAPE_ARGS = ["H", "H_KV", "SEQ_Q", "SEQ_K", "CAUSAL_OFFSET"]
VARLEN_SHAPE_ARGS = ["H", "H_KV", "TOTAL_Q", "TOTAL_K", "WIN_LEFT", "WIN_RIGHT", "G", "SPLITS", "K_STRIDE", "stride_bt",
                     "PAGE", "NUM_PAGES", "BT_COLS"]


_INTERPRETED = tl.constexpr(os.environ.get("TRITON_INTERPRET", "0") == "1")


@triton.jit
def _load_public(ptrs):
    """int32 loads at ptrs that stay in registers: one ld.global per element by inline PTX, which Triton's software
    pipeliner does not turn into an asynchronous copy through shared memory (it does so with tl.load inside a pipelined
    loop, volatile or not). For public data whose loaded values form addresses (the block table). Declared pure (the
    pipeliner cannot predicate anything else), so it may run speculatively: every address in ptrs must be valid for
    any loop iteration, hence no mask (the caller clamps the indices). The CPU interpreter, which cannot run PTX,
    takes tl.load."""
    if _INTERPRETED:
        return tl.load(ptrs)
    else:
        return tl.inline_asm_elementwise("ld.global.b32 $0, [$1];", "=r,l", [ptrs.to(tl.uint64, bitcast=True)],
                                         dtype=tl.int32, is_pure=True, pack=1)


@triton.jit
def _kv_blocks(acc, m_i, l_i, q, k_base, v_base, stride_kn, stride_vn, offs_m, offs_d,
               lo, hi, qk_scale, SEQ_K, CAUSAL_OFFSET,
               HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_N: tl.constexpr,
               MASKED: tl.constexpr, CAUSAL: tl.constexpr, DOT_PRECISION: tl.constexpr,
               cap_in=1.0, WIN_LEFT=0, WIN_RIGHT=0, LOCAL: tl.constexpr = False, SOFTCAP: tl.constexpr = False,
               BT=None, PAGE=None, NUM_PAGES=None, BT_COLS=None, PAGED: tl.constexpr = False,
               PAGE_BLOCKS: tl.constexpr = False):
    """Key blocks [lo, hi) of one query tile. The varlen kernel's options: LOCAL masks with a local window
    (WIN_LEFT / WIN_RIGHT; CAUSAL_OFFSET is then the bottom-right shift), SOFTCAP soft-caps the scores (the score
    becomes tanh(q.k * cap_in), and qk_scale = softcap * log2(e) scales it into the log2 domain), PAGED reads key
    j of the sequence from row BT[j // PAGE] * PAGE + j % PAGE of k and v (a paged cache: BT the sequence's row of
    the block table, BT_COLS entries, public loads; the column clamped to the row and each page index to [0,
    NUM_PAGES), so no address leaves the table or the cache). PAGE_BLOCKS (with PAGED; the caller's PAGE % BLOCK_N == 0,
    and lo a multiple of BLOCK_N, so each key block lies in one page): one page index per block, row start_n % PAGE +
    i of that page for the block's key i, instead of a page index per key."""
    offs_n0 = tl.arange(0, BLOCK_N)
    d_ok = offs_d < HEAD_DIM  # compile-time all-true unless the head dim is padded (96, 192)
    if PAGED and not PAGE_BLOCKS:
        # the per-key form: each key's table column and row in its page, in K's and V's layouts, carried from block
        # to block (one division before the loop; per block an add and a wrap by select) instead of a division and a
        # remainder per key and block (session 23 run 6, H200, pages of 16: D=128 decode x1.29 -> x1.17 of the
        # contiguous call, D=256 x1.31 -> x1.23, D=128 prefill x2.05 -> x1.80). Masked keys are not clamped to the
        # sequence here: the column is clamped to the table row, the page index to the cache and the row to the page,
        # so their (masked-off) addresses stay inside the cache.
        r0k = lo + offs_n0[None, :]
        r0v = lo + offs_n0[:, None]
        col_k = r0k // PAGE
        mod_k = r0k % PAGE
        col_v = r0v // PAGE
        mod_v = r0v % PAGE
        step_div = BLOCK_N // PAGE
        step_mod = BLOCK_N % PAGE
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + offs_n0
        if MASKED:
            n_ok = offs_n < SEQ_K
            # Masked-off lanes still carry an address; clamp it to a real row so that no access, even a
            # suppressed one, forms an address past the tensor (a public select).
            rows = tl.minimum(offs_n, SEQ_K - 1)
        else:
            rows = offs_n
        if PAGED and PAGE_BLOCKS:
            # the block's page: one table entry; the block's rows start_n % PAGE + i, i = rows - start_n in [0,
            # BLOCK_N) (masked rows are clamped to SEQ_K - 1 >= start_n), so every row stays inside that page
            blk_col = tl.minimum(start_n // PAGE, BT_COLS - 1)
            if BLOCK_D <= 128:
                # the page as a scalar (a one-element load, summed) and a scalar row base per block, the in-block
                # offsets as the unpaged loop's (session 23 run 4, H200, against the page index as a tensor in each
                # tile's layout: D=128 decode x1.14 -> x1.10 of the contiguous call, 64-query prefill x1.52 -> x1.30,
                # D=64 decode x1.19 -> x1.14). D=192 / 256 keep that tensor form: the scalar one spills there (D=256
                # split grouped causal: 216 stack bytes against 96) and measured slower (x1.08 -> x1.14).
                page = tl.sum(_load_public(BT + blk_col + tl.zeros([1], dtype=tl.int32)), axis=0)
                row0 = tl.minimum(tl.maximum(page, 0), NUM_PAGES - 1).to(tl.int64) * PAGE + start_n % PAGE
                if MASKED:
                    in_blk = tl.minimum(offs_n0, tl.maximum(SEQ_K - 1 - start_n, 0))
                else:
                    in_blk = offs_n0
                k_ptrs = (k_base + row0 * stride_kn) + in_blk[None, :] * stride_kn + offs_d[:, None]
                v_ptrs = (v_base + row0 * stride_vn) + in_blk[:, None] * stride_vn + offs_d[None, :]
            else:
                # the page index in each tile's layout (K's columns, V's rows), as the per-key form below
                in_page = start_n % PAGE + tl.maximum(rows - start_n, 0)
                zero_n = offs_n0 * 0
                page_k = tl.minimum(tl.maximum(_load_public(BT + blk_col + zero_n[None, :]), 0), NUM_PAGES - 1)
                page_v = tl.minimum(tl.maximum(_load_public(BT + blk_col + zero_n[:, None]), 0), NUM_PAGES - 1)
                k_ptrs = k_base + (page_k.to(tl.int64) * PAGE + in_page[None, :]) * stride_kn + offs_d[:, None]
                v_ptrs = v_base + (page_v.to(tl.int64) * PAGE + in_page[:, None]) * stride_vn + offs_d[None, :]
        elif PAGED:
            # The block table is read once in each tile's layout (K's columns, V's rows), by _load_public: a vector
            # load converted between layouts, or pipelined into shared memory, would reach the addresses through
            # shared-memory loads, which the auditor cannot tell from secret ones. The column is clamped to the
            # table row (the pure asm may run in any iteration). Row offsets in 32 bits: the API keeps the cache's
            # span below 2**31 elements, and the row is inside it.
            page_k = tl.minimum(tl.maximum(_load_public(BT + tl.minimum(col_k, BT_COLS - 1)), 0), NUM_PAGES - 1)
            page_v = tl.minimum(tl.maximum(_load_public(BT + tl.minimum(col_v, BT_COLS - 1)), 0), NUM_PAGES - 1)
            k_ptrs = k_base + (page_k * PAGE + mod_k) * stride_kn + offs_d[:, None]
            v_ptrs = v_base + (page_v * PAGE + mod_v) * stride_vn + offs_d[None, :]
            mod_k += step_mod  # the next block's keys: BLOCK_N further, so at most one wrap into the next page
            wrap_k = mod_k >= PAGE
            mod_k = tl.where(wrap_k, mod_k - PAGE, mod_k)
            col_k += step_div + wrap_k.to(tl.int32)
            mod_v += step_mod
            wrap_v = mod_v >= PAGE
            mod_v = tl.where(wrap_v, mod_v - PAGE, mod_v)
            col_v += step_div + wrap_v.to(tl.int32)
        else:
            k_ptrs = k_base + rows[None, :] * stride_kn + offs_d[:, None]
            v_ptrs = v_base + rows[:, None] * stride_vn + offs_d[None, :]
        if MASKED:
            k = tl.load(k_ptrs, mask=n_ok[None, :] & d_ok[:, None], other=0.0)
        elif HEAD_DIM != BLOCK_D:
            k = tl.load(k_ptrs, mask=d_ok[:, None], other=0.0)
        else:
            k = tl.load(k_ptrs)
        qk = tl.dot(q, k, input_precision=DOT_PRECISION)
        if SOFTCAP == 2:  # the GPU builds: one MUFU.TANH per score
            qk = tanh_mufu(qk * cap_in)
        elif SOFTCAP:  # the interpreter (no inline PTX): 1 - 2 / (2^(2x log2 e) + 1)
            qk = tanh_ct(qk * cap_in)
        if MASKED:
            if LOCAL:
                qk = mask_window(qk, offs_m, offs_n, SEQ_K, CAUSAL_OFFSET, WIN_LEFT, WIN_RIGHT)
            else:
                qk = mask_scores(qk, offs_m, offs_n, SEQ_K, CAUSAL_OFFSET, CAUSAL)
        p, m_i, l_i, acc = online_softmax_step(qk, qk_scale, m_i, l_i, acc, MASKED)
        if MASKED:
            v = tl.load(v_ptrs, mask=n_ok[:, None] & d_ok[None, :], other=0.0)
        elif HEAD_DIM != BLOCK_D:
            v = tl.load(v_ptrs, mask=d_ok[None, :], other=0.0)
        else:
            v = tl.load(v_ptrs)
        acc = tl.dot(p.to(v.dtype), v, acc, input_precision=DOT_PRECISION)
    return acc, m_i, l_i


@triton.jit(do_not_specialize=SHAPE_ARGS)
def attn_fwd(Q, K, V, O, LSE, qk_scale,
             stride_qb, stride_qh, stride_qm, stride_kb, stride_kh, stride_kn,
             stride_vb, stride_vh, stride_vn, stride_ob, stride_oh, stride_om,
             H, H_KV, SEQ_Q, SEQ_K, CAUSAL_OFFSET,
             HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             CAUSAL: tl.constexpr, DOT_PRECISION: tl.constexpr):
    """One program = one BLOCK_M tile of query rows of one (batch, head); layout (B, S, H, D) by strides."""
    pid_m, pid_bh, b, h, h_kv = query_tile(H, H_KV, CAUSAL)
    b = b.to(tl.int64)
    m0 = pid_m * BLOCK_M
    offs_m = m0 + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    m_ok = offs_m < SEQ_Q
    d_ok = offs_d < HEAD_DIM

    q_rows = tl.minimum(offs_m, SEQ_Q - 1)  # masked rows point at a real row (see _kv_blocks)
    q_ptrs = Q + b * stride_qb + h * stride_qh + q_rows[:, None] * stride_qm + offs_d[None, :]
    q = tl.load(q_ptrs, mask=m_ok[:, None] & d_ok[None, :], other=0.0)
    k_base = K + b * stride_kb + h_kv * stride_kh
    v_base = V + b * stride_vb + h_kv * stride_vh

    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)

    n_full, kv_end = kv_bounds(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, CAUSAL)
    acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, k_base, v_base, stride_kn, stride_vn, offs_m, offs_d,
                               0, n_full, qk_scale, SEQ_K, CAUSAL_OFFSET,
                               HEAD_DIM, BLOCK_D, BLOCK_N, False, CAUSAL, DOT_PRECISION)
    acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, k_base, v_base, stride_kn, stride_vn, offs_m, offs_d,
                               n_full, kv_end, qk_scale, SEQ_K, CAUSAL_OFFSET,
                               HEAD_DIM, BLOCK_D, BLOCK_N, True, CAUSAL, DOT_PRECISION)

    out, lse = finalize_rows(acc, m_i, l_i)
    o_ptrs = O + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :]
    tl.store(o_ptrs, out.to(O.dtype.element_ty), mask=m_ok[:, None] & d_ok[None, :])
    tl.store(LSE + pid_bh.to(tl.int64) * SEQ_Q + offs_m, lse, mask=m_ok)


@triton.jit
def _kv_blocks_tma(acc, m_i, l_i, q, k_desc, v_desc, b, h_kv, offs_m, lo, hi, qk_scale, SEQ_K, CAUSAL_OFFSET,
                   HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_N: tl.constexpr, MASKED: tl.constexpr,
                   CAUSAL: tl.constexpr, DOT_PRECISION: tl.constexpr):
    if MASKED and BLOCK_N == 64 and BLOCK_D == HEAD_DIM and q.shape[0] == 64:
        # 64x64 tiles (q.shape[0]: the tile's rows): the masked blocks (a causal tile's diagonal, a ragged tail: at
        # most two) pipelined with two stages, not the kernel's three: two ring slots fewer to set up and invalidate
        # per tile. Session 28 (H200, the API in graph replay, 25 interleaved rounds, three runs): D=64 causal
        # (32,32,512) x1.019 / x1.027 / x1.024, (16,32,1024) x1.017 / x1.008 / x1.010, (8,32,2048) x1.014 / x0.999 /
        # x1.008, (2,16,777) non-causal x1.014 / x1.015; D=32 causal (32,64,512) x1.025 / x1.025 / x1.024; D=128
        # causal (1,8,512) x1.019 / x1.017 / x1.017. Not where the head dim is padded (D=96 causal (8,16,2048) x0.989
        # / x0.984) nor with 32-key blocks (D=192 / 256: x0.985-1.001); one stage: x0.97-1.02.
        for start_n in tl.range(lo, hi, BLOCK_N, num_stages=2):
            acc, m_i, l_i = _tma_step(acc, m_i, l_i, q, k_desc, v_desc, b, h_kv, offs_m, start_n, qk_scale, SEQ_K,
                                      CAUSAL_OFFSET, BLOCK_D, BLOCK_N, MASKED, CAUSAL, DOT_PRECISION)
    else:
        for start_n in range(lo, hi, BLOCK_N):
            acc, m_i, l_i = _tma_step(acc, m_i, l_i, q, k_desc, v_desc, b, h_kv, offs_m, start_n, qk_scale, SEQ_K,
                                      CAUSAL_OFFSET, BLOCK_D, BLOCK_N, MASKED, CAUSAL, DOT_PRECISION)
    return acc, m_i, l_i


@triton.jit
def _tma_step(acc, m_i, l_i, q, k_desc, v_desc, b, h_kv, offs_m, start_n, qk_scale, SEQ_K, CAUSAL_OFFSET,
              BLOCK_D: tl.constexpr, BLOCK_N: tl.constexpr, MASKED: tl.constexpr, CAUSAL: tl.constexpr,
              DOT_PRECISION: tl.constexpr):
    # TMA zero-fills rows past SEQ_K and columns past HEAD_DIM: no predicate on any load.
    k = k_desc.load([b, start_n, h_kv, 0]).reshape(BLOCK_N, BLOCK_D)
    qk = tl.dot(q, k.T, input_precision=DOT_PRECISION)
    if MASKED:
        qk = mask_scores(qk, offs_m, start_n + tl.arange(0, BLOCK_N), SEQ_K, CAUSAL_OFFSET, CAUSAL)
    p, m_i, l_i, acc = online_softmax_step(qk, qk_scale, m_i, l_i, acc, MASKED)
    v = v_desc.load([b, start_n, h_kv, 0]).reshape(BLOCK_N, BLOCK_D)
    acc = tl.dot(p.to(v.dtype), v, acc, input_precision=DOT_PRECISION)
    return acc, m_i, l_i


@triton.jit(do_not_specialize=SHAPE_ARGS + ["MAGIC_H", "MAGIC_G"])
def attn_fwd_tma(q_desc, k_desc, v_desc, o_desc, LSE, qk_scale, MAGIC_H, MAGIC_G,
                 H, H_KV, SEQ_Q, SEQ_K, CAUSAL_OFFSET,
                 HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 CAUSAL: tl.constexpr, DOT_PRECISION: tl.constexpr):
    """Same computation as attn_fwd, with every tile moved by TMA on 4-D (B, S, H, D) descriptors."""
    # The batch, head and key/value head by multiplications with the host's magic numbers (division_magic), not by
    # integer divisions: the Q TMA issues 100 instructions earlier (offline SASS, D=64: at 0x2c0, not 0x640), loop
    # bodies unchanged. Session 28 (H200, the API in graph replay, 25 interleaved rounds, twice): D=64 (32,32,512)
    # x1.042 / x1.044, causal x1.034 / x1.033, causal 1K x1.018 / x1.016, (16,32,1024) x0.993 / x1.011, causal 2K / 4K
    # x0.995-1.012, (4,16,1024) x1.015 / x1.014, (2,48,777) causal x1.022 / x1.020; D=32 (32,64,512) x1.045 / x1.045;
    # D=128 (1,8,512) causal x1.012 / x1.010; D=96 / 192 causal 2K x0.992-1.004.
    pid_m, pid_bh, b, h, h_kv = query_tile_magic(MAGIC_H, MAGIC_G, H, CAUSAL)
    m0 = pid_m * BLOCK_M
    offs_m = m0 + tl.arange(0, BLOCK_M)

    q = q_desc.load([b, m0, h, 0]).reshape(BLOCK_M, BLOCK_D)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
    n_full, kv_end = kv_bounds(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, CAUSAL)
    acc, m_i, l_i = _kv_blocks_tma(acc, m_i, l_i, q, k_desc, v_desc, b, h_kv, offs_m, 0, n_full, qk_scale,
                                   SEQ_K, CAUSAL_OFFSET, HEAD_DIM, BLOCK_D, BLOCK_N, False, CAUSAL, DOT_PRECISION)
    # The masked blocks under a branch on their public count: a tile with none (non-causal, the keys a multiple of
    # BLOCK_N) skips the set-up and invalidation of that loop's ring barriers. Session 28 (H200, the API in graph
    # replay, 41 interleaved rounds, twice): D=64 (32,32,512) x1.034 / x1.038, (16,32,1024) x1.006 / x1.013,
    # (4,16,1024) x1.022 / x1.022, causal 512 x1.008 / x1.002; D=32 (32,64,512) x1.044 / x1.044. The same branch
    # around the unmasked loop as well cost x0.986-0.990 at D=64 1K (its loop body rescheduled), and in the pointer
    # kernel attn_fwd x0.97 at (1,8,512,64) causal, so neither is done.
    if kv_end > n_full:
        acc, m_i, l_i = _kv_blocks_tma(acc, m_i, l_i, q, k_desc, v_desc, b, h_kv, offs_m, n_full, kv_end, qk_scale,
                                       SEQ_K, CAUSAL_OFFSET, HEAD_DIM, BLOCK_D, BLOCK_N, True, CAUSAL, DOT_PRECISION)
    out, lse = finalize_rows(acc, m_i, l_i)
    # TMA clips the store at SEQ_Q rows and HEAD_DIM columns.
    o_desc.store([b, m0, h, 0], out.to(o_desc.dtype).reshape(1, BLOCK_M, 1, BLOCK_D))
    tl.store(LSE + pid_bh.to(tl.int64) * SEQ_Q + offs_m, lse, mask=offs_m < SEQ_Q)


@triton.jit
def _varlen_rows(r, rows_total, G, stride_m, stride_h, TOTAL_Q, GROUP: tl.constexpr):
    """(query position, element offset, LSE offset) of tile rows r, clamped to a real row. GROUP: rows are (position,
    head of the group) pairs, position-major (r = position * G + head offset); else G = 1: rows are positions."""
    rc = tl.minimum(r, rows_total - 1)
    if GROUP:
        pos = rc // G
        hh = rc % G
        return pos, pos * stride_m + hh * stride_h, hh.to(tl.int64) * TOTAL_Q + pos
    else:
        return rc, rc * stride_m, rc.to(tl.int64)


@triton.jit
def _ws_rows(q_lo, pos, r, rows_total, h0, H, G, TOTAL_Q, part, HEAD_DIM: tl.constexpr, GROUP: tl.constexpr):
    """Where tile rows r (position pos of the sequence from row q_lo; head h0, plus the row's head offset with GROUP)
    keep part `part` of their state in the split workspace: (element offsets into WS_O (SPLITS, TOTAL_Q, H,
    HEAD_DIM), offsets into WS_L (SPLITS, H, TOTAL_Q)). Shared by attn_fwd_varlen(SPLIT) and attn_varlen_combine.
    part * H * TOTAL_Q stays in int32: the API splits only where the workspace has fewer than 2**29 elements."""
    row = (q_lo + pos).to(tl.int64) + part * TOTAL_Q
    if GROUP:
        head = h0 + tl.minimum(r, rows_total - 1) % G
    else:
        head = h0
    return (row * H + head) * HEAD_DIM, part * H * TOTAL_Q + head.to(tl.int64) * TOTAL_Q + q_lo + pos


@triton.jit(do_not_specialize=VARLEN_SHAPE_ARGS)
def attn_fwd_varlen(Q, K, V, O, LSE, CU_Q, CU_K, WS_O, WS_L, qk_scale, cap_in,
                    stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_om, stride_oh,
                    H, H_KV, TOTAL_Q, TOTAL_K, WIN_LEFT, WIN_RIGHT, G, SPLITS, K_STRIDE,
                    HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    CAUSAL: tl.constexpr, LOCAL: tl.constexpr, SOFTCAP: tl.constexpr, SPLIT: tl.constexpr,
                    GROUP: tl.constexpr, DOT_PRECISION: tl.constexpr, BT=None, stride_bt=None, PAGE=None,
                    NUM_PAGES=None, BT_COLS=None, PAGED: tl.constexpr = False, PAGE_BLOCKS: tl.constexpr = False):
    """Variable-length sequences packed along the rows (flash-attn's varlen layout): q (TOTAL_Q, H, D), k and v
    (TOTAL_K, H_KV, D); sequence b owns rows [CU_Q[b], CU_Q[b + 1]) of q and [CU_K[b * K_STRIDE], CU_K[b * K_STRIDE +
    1]) of k and v (K_STRIDE 1: offsets; 2: a (start, end) pair per sequence, as a key/value cache's rows are).
    Program (t, b * H / G + j) runs query tile t of sequence b, heads j * G .. j * G + G - 1, of the T = programs
    along axis 0 (the caller's max_seqlen_q * G / BLOCK_M); a sequence longer than T tiles (max_seqlen_q too small, a
    caller's error) gets NaN in its rows past them, never stale memory. The sequence offsets are public (the schedule
    is a function of them, as of any shape); the clamps below keep every address inside the tensors even for offsets
    out of order.
    G (public, 1 or H / H_KV): the query heads of a tile. G > 1 (flash-attn's pack_gqa) runs a key/value head's group
    as rows (position, head) of its tiles, so each K/V block is read once per group, and a decode step (one query)
    fills G rows of a tile instead of one.
    SPLIT: program (t, ., part) runs part `part` of SPLITS of the tile's key blocks (every block masked) and writes its
    normalised partial output and LSE to WS_O (SPLITS, TOTAL_Q, H, HEAD_DIM) and WS_L (SPLITS, H, TOTAL_Q), float32;
    attn_varlen_combine merges them (decode steps over long keys on few programs).
    LOCAL: flash-attn's window_size (public WIN_LEFT / WIN_RIGHT; an unbounded side is WINDOW_UNBOUNDED); causal
    calls with a window run as LOCAL with WIN_RIGHT = 0. SOFTCAP: flash-attn's softcap, scores softcap * tanh(q.k *
    scale / softcap) (qk_scale = softcap * log2(e), cap_in = scale / softcap); 2 (the GPU builds) takes tanh from
    MUFU.TANH, 1 (the interpreter's tiles) from MUFU.EX2 and a reciprocal (session 34; ctmath.tanh_mufu / tanh_ct).
    PAGED: k and v are a paged cache, (NUM_PAGES * PAGE, H_KV, D) rows; sequence b's key j (its offsets give its
    length; they are logical, so TOTAL_K bounds nothing here) is row BT[b, j // PAGE] * PAGE + j % PAGE (BT the int32
    block table, BT_COLS columns, row stride stride_bt; public loads, as the offsets), and a sequence is cut to
    BT_COLS * PAGE keys, so no access leaves the block table or the cache (page indices are clamped). PAGE_BLOCKS
    (PAGED builds for PAGE % BLOCK_N == 0, the caller's check): one page index per key block (_kv_blocks). Without PAGED,
    BT, stride_bt, PAGE, NUM_PAGES and BT_COLS are None (Triton drops None arguments from the signature, so those
    builds' parameters are the ones they had before paging existed)."""
    pid_bh = tl.program_id(1)
    hg = H // G
    b = pid_bh // hg
    h0 = (pid_bh % hg) * G
    h_kv = h0 // (H // H_KV)
    q_lo = tl.minimum(tl.maximum(tl.load(CU_Q + b), 0), TOTAL_Q)
    q_hi = tl.minimum(tl.maximum(tl.load(CU_Q + b + 1), q_lo), TOTAL_Q)
    k_lo = tl.minimum(tl.maximum(tl.load(CU_K + b * K_STRIDE), 0), TOTAL_K)
    k_hi = tl.minimum(tl.maximum(tl.load(CU_K + b * K_STRIDE + 1), k_lo), TOTAL_K)
    seq_q = q_hi - q_lo
    seq_k = k_hi - k_lo
    if PAGED:  # keys are rows of the sequence's pages, not of k from k_lo
        seq_k = tl.minimum(seq_k, BT_COLS * PAGE)
        k_lo = k_lo * 0
        bt_row = BT + b.to(tl.int64) * stride_bt
    else:
        bt_row = BT
    rows_total = seq_q * G
    shift = seq_k - seq_q  # bottom-right alignment, as flash-attn's
    n_tiles = tl.cdiv(rows_total, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    d_ok = offs_d < HEAD_DIM
    q_base = Q + q_lo.to(tl.int64) * stride_qm + h0 * stride_qh
    o_base = O + q_lo.to(tl.int64) * stride_om + h0 * stride_oh
    k_base = K + k_lo.to(tl.int64) * stride_kn + h_kv * stride_kh
    v_base = V + k_lo.to(tl.int64) * stride_vn + h_kv * stride_vh
    lse_base = LSE + h0.to(tl.int64) * TOTAL_Q + q_lo
    t = tl.program_id(0)
    n_programs = tl.num_programs(0)
    if t < n_tiles:
        if CAUSAL:
            pid_m = tl.minimum(n_tiles, n_programs) - 1 - t  # heaviest tiles (most visible keys) first
        else:
            pid_m = t
        m0 = pid_m * BLOCK_M
        offs_r = m0 + tl.arange(0, BLOCK_M)
        r_ok = offs_r < rows_total
        pos, q_off, lse_off = _varlen_rows(offs_r, rows_total, G, stride_qm, stride_qh, TOTAL_Q, GROUP)
        q = tl.load(q_base + q_off[:, None] + offs_d[None, :], mask=r_ok[:, None] & d_ok[None, :], other=0.0)
        m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
        l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
        acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
        if GROUP:  # the tile's first and last query positions
            p0 = m0 // G
            p1 = (m0 + BLOCK_M - 1) // G
        else:
            p0 = m0
            p1 = m0 + BLOCK_M - 1
        if LOCAL:
            lo, f0, f1, hi = window_bounds(p0, p1, seq_k, shift, WIN_LEFT, WIN_RIGHT, BLOCK_N)
        else:
            f1, hi = kv_bounds_rows(p0, p1, seq_k, shift, BLOCK_N, CAUSAL)  # [0, f1) unmasked, [f1, hi) masked
            lo = 0
        if SPLIT:  # this part's share of the tile's blocks [lo, hi), every block masked
            part = tl.program_id(2)
            per = tl.cdiv(tl.cdiv(tl.maximum(hi - lo, 0), BLOCK_N), SPLITS) * BLOCK_N
            p_lo = lo + part * per
            p_hi = tl.minimum(hi, p_lo + per)
            acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, k_base, v_base, stride_kn, stride_vn, pos, offs_d,
                                       p_lo, p_hi, qk_scale, seq_k, shift, HEAD_DIM, BLOCK_D, BLOCK_N, True, CAUSAL,
                                       DOT_PRECISION, cap_in, WIN_LEFT, WIN_RIGHT, LOCAL, SOFTCAP, bt_row, PAGE,
                                       NUM_PAGES, BT_COLS, PAGED, PAGE_BLOCKS)
        elif not LOCAL:
            acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, k_base, v_base, stride_kn, stride_vn, pos, offs_d,
                                       0, f1, qk_scale, seq_k, shift, HEAD_DIM, BLOCK_D, BLOCK_N, False, CAUSAL,
                                       DOT_PRECISION, cap_in, WIN_LEFT, WIN_RIGHT, LOCAL, SOFTCAP, bt_row, PAGE,
                                       NUM_PAGES, BT_COLS, PAGED, PAGE_BLOCKS)
            acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, k_base, v_base, stride_kn, stride_vn, pos, offs_d,
                                       f1, hi, qk_scale, seq_k, shift, HEAD_DIM, BLOCK_D, BLOCK_N, True, CAUSAL,
                                       DOT_PRECISION, cap_in, WIN_LEFT, WIN_RIGHT, LOCAL, SOFTCAP, bt_row, PAGE,
                                       NUM_PAGES, BT_COLS, PAGED, PAGE_BLOCKS)
        else:
            acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, k_base, v_base, stride_kn, stride_vn, pos, offs_d,
                                       lo, f0, qk_scale, seq_k, shift, HEAD_DIM, BLOCK_D, BLOCK_N, True, CAUSAL,
                                       DOT_PRECISION, cap_in, WIN_LEFT, WIN_RIGHT, LOCAL, SOFTCAP, bt_row, PAGE,
                                       NUM_PAGES, BT_COLS, PAGED, PAGE_BLOCKS)
            acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, k_base, v_base, stride_kn, stride_vn, pos, offs_d,
                                       f0, f1, qk_scale, seq_k, shift, HEAD_DIM, BLOCK_D, BLOCK_N, False, CAUSAL,
                                       DOT_PRECISION, cap_in, WIN_LEFT, WIN_RIGHT, LOCAL, SOFTCAP, bt_row, PAGE,
                                       NUM_PAGES, BT_COLS, PAGED, PAGE_BLOCKS)
            acc, m_i, l_i = _kv_blocks(acc, m_i, l_i, q, k_base, v_base, stride_kn, stride_vn, pos, offs_d,
                                       f1, hi, qk_scale, seq_k, shift, HEAD_DIM, BLOCK_D, BLOCK_N, True, CAUSAL,
                                       DOT_PRECISION, cap_in, WIN_LEFT, WIN_RIGHT, LOCAL, SOFTCAP, bt_row, PAGE,
                                       NUM_PAGES, BT_COLS, PAGED, PAGE_BLOCKS)
        out, lse = finalize_rows(acc, m_i, l_i)
        if SPLIT:
            ws_o, ws_l = _ws_rows(q_lo, pos, offs_r, rows_total, h0, H, G, TOTAL_Q, tl.program_id(2), HEAD_DIM, GROUP)
            tl.store(WS_O + ws_o[:, None] + offs_d[None, :], out, mask=r_ok[:, None] & d_ok[None, :])
            tl.store(WS_L + ws_l, lse, mask=r_ok)
        else:
            _, o_off, _ = _varlen_rows(offs_r, rows_total, G, stride_om, stride_oh, TOTAL_Q, GROUP)
            tl.store(o_base + o_off[:, None] + offs_d[None, :], out.to(O.dtype.element_ty),
                     mask=r_ok[:, None] & d_ok[None, :])
            tl.store(lse_base + lse_off, lse, mask=r_ok)
    if not SPLIT:  # (attn_varlen_combine does this for split calls)
        _varlen_nan_tail(O, LSE, o_base, lse_base, offs_d, d_ok, rows_total, G, stride_om, stride_oh, TOTAL_Q,
                         BLOCK_M, BLOCK_D, GROUP)


@triton.jit
def _varlen_nan_tail(O, LSE, o_base, lse_base, offs_d, d_ok, rows_total, G, stride_om, stride_oh, TOTAL_Q,
                     BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr, GROUP: tl.constexpr):
    """Rows past the grid (seq_q > max_seqlen_q, a caller's error) get NaN, written by the last program of axis 0."""
    n_programs = tl.num_programs(0)
    if tl.program_id(0) == n_programs - 1:
        nan_tile = tl.full([BLOCK_M, BLOCK_D], float("nan"), dtype=O.dtype.element_ty)
        for r0 in range(n_programs * BLOCK_M, rows_total, BLOCK_M):
            offs_x = r0 + tl.arange(0, BLOCK_M)
            x_ok = offs_x < rows_total
            _, o_off, lse_off = _varlen_rows(offs_x, rows_total, G, stride_om, stride_oh, TOTAL_Q, GROUP)
            tl.store(o_base + o_off[:, None] + offs_d[None, :], nan_tile, mask=x_ok[:, None] & d_ok[None, :])
            tl.store(lse_base + lse_off, tl.full([BLOCK_M], float("nan"), dtype=tl.float32), mask=x_ok)


@triton.jit(do_not_specialize=["H", "TOTAL_Q", "G", "SPLITS"])
def attn_varlen_combine(WS_O, WS_L, O, LSE, CU_Q, stride_om, stride_oh, H, TOTAL_Q, G, SPLITS,
                        HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_M: tl.constexpr, GROUP: tl.constexpr,
                        PARTS: tl.constexpr = 1):
    """Merge the SPLITS partial states of attn_fwd_varlen(SPLIT) into O and LSE: lse = log sum_p exp(lse_p), out =
    sum_p exp(lse_p - lse) out_p, by selects and the approximate exp2 / log2 (no branch on data); parts without a
    visible key carry lse -inf and weigh 0; rows without any give 0 and -inf. Rows in tiles of BLOCK_M (its own,
    varlen_combine_args' grid; G heads per program as the attention launch's). PARTS parts are read at once (a
    [PARTS, BLOCK_M] LSE tile and a [PARTS, BLOCK_M, BLOCK_D] output tile, loaded together), the parts past SPLITS
    masked off, so a decode step's 2-16 parts cost one round of loads, not two per part (session 36: the part-by-part
    loop took 7-21 us beside 32-180 us of attention); more parts than PARTS rescale group by group. Parts are summed in
    a fixed tree per PARTS and in order across groups: the same bits on every call."""
    pid_bh = tl.program_id(1)
    hg = H // G
    b = pid_bh // hg
    h0 = (pid_bh % hg) * G
    q_lo = tl.minimum(tl.maximum(tl.load(CU_Q + b), 0), TOTAL_Q)
    q_hi = tl.minimum(tl.maximum(tl.load(CU_Q + b + 1), q_lo), TOTAL_Q)
    rows_total = (q_hi - q_lo) * G
    offs_d = tl.arange(0, BLOCK_D)
    d_ok = offs_d < HEAD_DIM
    o_base = O + q_lo.to(tl.int64) * stride_om + h0 * stride_oh
    lse_base = LSE + h0.to(tl.int64) * TOTAL_Q + q_lo
    t = tl.program_id(0)
    if t < tl.cdiv(rows_total, BLOCK_M):
        offs_r = t * BLOCK_M + tl.arange(0, BLOCK_M)
        r_ok = offs_r < rows_total
        pos, o_off, lse_off = _varlen_rows(offs_r, rows_total, G, stride_om, stride_oh, TOTAL_Q, GROUP)
        offs_p = tl.arange(0, PARTS)
        m = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
        acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
        w_sum = tl.zeros([BLOCK_M], dtype=tl.float32)
        for p0 in range(0, SPLITS, PARTS):  # one pass: each group of parts rescales what the groups before it gave
            part = p0 + offs_p
            p_ok = (part < SPLITS)[:, None] & r_ok[None, :]
            ws_o, ws_l = _ws_rows(q_lo, pos[None, :], offs_r[None, :], rows_total, h0, H, G, TOTAL_Q, part[:, None],
                                  HEAD_DIM, GROUP)
            lse_p = tl.load(WS_L + ws_l, mask=p_ok, other=float("-inf"))
            o_p = tl.load(WS_O + ws_o[:, :, None] + offs_d[None, None, :],
                          mask=p_ok[:, :, None] & d_ok[None, None, :], other=0.0)
            m_new = tl.maximum(m, tl.max(lse_p, axis=0))
            m_sub = tl.where(m_new == float("-inf"), 0.0, m_new)
            alpha = tl.math.exp2((m - m_sub) * 1.4426950408889634)  # 0 for the first group (m = -inf)
            w = tl.math.exp2((lse_p - m_sub[None, :]) * 1.4426950408889634)  # exp(lse_p - m), [PARTS, BLOCK_M]
            acc = acc * alpha[:, None] + tl.sum(o_p * w[:, :, None], axis=0)
            w_sum = w_sum * alpha + tl.sum(w, axis=0)
            m = m_new
        m_sub = tl.where(m == float("-inf"), 0.0, m)
        empty = w_sum == 0.0
        out = acc / tl.where(empty, 1.0, w_sum)[:, None]
        lse = tl.where(empty, float("-inf"), m_sub + tl.math.log2(tl.where(empty, 1.0, w_sum)) * 0.6931471805599453)
        tl.store(o_base + o_off[:, None] + offs_d[None, :], out.to(O.dtype.element_ty),
                 mask=r_ok[:, None] & d_ok[None, :])
        tl.store(lse_base + lse_off, lse, mask=r_ok)
    _varlen_nan_tail(O, LSE, o_base, lse_base, offs_d, d_ok, rows_total, G, stride_om, stride_oh, TOTAL_Q, BLOCK_M,
                     BLOCK_D, GROUP)


@triton.jit(do_not_specialize=["MAX_Q", "MAX_K", "O_ELEMS", "LSE_ELEMS"])
def varlen_equal_guard(O, LSE, CU_Q, CU_K, MAX_Q, MAX_K, O_ELEMS, LSE_ELEMS, CHUNK: tl.constexpr):
    """After a varlen call of B sequences ran as one dense (B, MAX_Q) x (B, MAX_K) batch (the API's equal-length
    path, taken where total_q = B * MAX_Q and total_k = B * MAX_K): program b compares sequence b's offsets with the
    dense batch's, b * MAX_Q and (b + 1) * MAX_Q in CU_Q, b * MAX_K and (b + 1) * MAX_K in CU_K. Where they agree,
    the dense block b is exactly sequence b's attention. Where they differ, some sequence is longer than its
    max_seqlen (a caller's error the dense kernel cannot see), and block b's rows become NaN: O (O_ELEMS elements per
    block, contiguous) and LSE (LSE_ELEMS per block: (B, H, MAX_Q) contiguous). Public: the offsets (declared public
    loads, as in attn_fwd_varlen; four scalar loads per program, no reduction through shared memory), so the branch
    and the stores' predicates depend on public values only; nothing secret is read."""
    b = tl.program_id(0).to(tl.int64)
    q0 = tl.load(CU_Q + b)
    q1 = tl.load(CU_Q + b + 1)
    k0 = tl.load(CU_K + b)
    k1 = tl.load(CU_K + b + 1)
    if (q0 != b * MAX_Q) | (q1 != (b + 1) * MAX_Q) | (k0 != b * MAX_K) | (k1 != (b + 1) * MAX_K):
        o_base = O + b * O_ELEMS
        for off in range(0, O_ELEMS, CHUNK):
            idx = off + tl.arange(0, CHUNK)
            tl.store(o_base + idx, tl.full([CHUNK], float("nan"), dtype=O.dtype.element_ty), mask=idx < O_ELEMS)
        l_base = LSE + b * LSE_ELEMS
        for off in range(0, LSE_ELEMS, CHUNK):
            idx = off + tl.arange(0, CHUNK)
            tl.store(l_base + idx, tl.full([CHUNK], float("nan"), dtype=tl.float32), mask=idx < LSE_ELEMS)


GUARD_CHUNK = 1024  # elements written per step when the guard fires


def equal_guard_args(out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k):
    """(grid, args, kwargs) of varlen_equal_guard after the dense run: out (B, MAX_Q, H, D) and lse (B, H, MAX_Q),
    both contiguous."""
    batch = cu_seqlens_q.shape[0] - 1
    assert out.is_contiguous() and lse.is_contiguous() and out.shape[0] == batch == lse.shape[0]
    args = (out, lse, cu_seqlens_q, cu_seqlens_k, int(max_seqlen_q), int(max_seqlen_k), out[0].numel(),
            lse[0].numel())
    return (batch,), args, dict(CHUNK=GUARD_CHUNK, num_warps=4)


@triton.jit(do_not_specialize=["B", "S_NEW", "SC"])
def kvcache_bounds(LENS, LEFTPAD, IDX, BOUNDS, B, S_NEW, SC, PAGED: tl.constexpr, HAS_LEFTPAD: tl.constexpr,
                   HAS_IDX: tl.constexpr, BLOCK: tl.constexpr):
    """flash_attn_with_kvcache's (start, end) key rows of each of B sequences, into BOUNDS (2B,) int32, in one launch
    (session 34; it replaced seven small torch operations per call): end = clamp(LENS[b] + S_NEW, 0, SC) keys; start
    = the sequence's cache row (IDX[b] with HAS_IDX, else b) x SC, or 0 (PAGED: logical rows of its pages); the first
    key row start + clamp(LEFTPAD[b], 0, end) with HAS_LEFTPAD. Sums in int64, stored as int32 (the API keeps the
    cache's rows below 2^31). Public: every value it loads (lengths, rows, pads: declared public), shapes."""
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < B
    _kvcache_rows(i, ok, LENS, LEFTPAD, IDX, BOUNDS, S_NEW, SC, PAGED, HAS_LEFTPAD, HAS_IDX)


@triton.jit
def _kvcache_rows(i, ok, LENS, LEFTPAD, IDX, BOUNDS, S_NEW, SC, PAGED: tl.constexpr, HAS_LEFTPAD: tl.constexpr,
                  HAS_IDX: tl.constexpr):
    """kvcache_bounds' (start, end) key rows of sequences i (a block, or one) where ok, into BOUNDS."""
    ends = tl.minimum(tl.maximum(tl.load(LENS + i, mask=ok, other=0).to(tl.int64) + S_NEW, 0), SC)
    if PAGED:
        start = ends * 0
    elif HAS_IDX:
        start = tl.load(IDX + i, mask=ok, other=0).to(tl.int64) * SC
    else:
        start = i.to(tl.int64) * SC
    first = start
    if HAS_LEFTPAD:
        first = start + tl.minimum(tl.maximum(tl.load(LEFTPAD + i, mask=ok, other=0).to(tl.int64), 0), ends)
    tl.store(BOUNDS + 2 * i, first.to(tl.int32), mask=ok)
    tl.store(BOUNDS + 2 * i + 1, (start + ends).to(tl.int32), mask=ok)


# kvcache_append's integer arguments: none specialised (one binary per form whatever the shapes and strides)
_APPEND_INTS = ["B", "S_NEW", "SC", "ROW_ELEMS", "D", "N_B", "N_S", "N_H", "N_D", "NV_B", "NV_S", "NV_H", "NV_D",
                "C_ROW", "C_H", "C_D", "CV_ROW", "CV_H", "CV_D", "BT_ROW", "PAGE", "N_ROWS", "STEPS", "SQ", "Q_ROW",
                "Q_B", "Q_S", "Q_H", "Q_D", "QO_B", "QO_S", "QO_H", "QO_D", "HALF", "PER_ROW", "RO_LEN", "CS_ROW",
                "CS_COL"]


@triton.jit(do_not_specialize=_APPEND_INTS + ["K_NEW", "V_NEW", "K_CACHE", "V_CACHE", "Q", "Q_OUT", "COS", "SIN"])
def kvcache_append(LENS, LEFTPAD, IDX, BOUNDS, K_NEW, V_NEW, K_CACHE, V_CACHE, BT, B, S_NEW, SC, ROW_ELEMS, D,
                   N_B, N_S, N_H, N_D, NV_B, NV_S, NV_H, NV_D, C_ROW, C_H, C_D, CV_ROW, CV_H, CV_D, BT_ROW, PAGE,
                   N_ROWS, STEPS, Q, Q_OUT, COS, SIN, SQ, Q_ROW, Q_B, Q_S, Q_H, Q_D, QO_B, QO_S, QO_H, QO_D, HALF,
                   PER_ROW, RO_LEN, CS_ROW, CS_COL, PAGED: tl.constexpr, HAS_LEFTPAD: tl.constexpr,
                   HAS_IDX: tl.constexpr, ROTARY: tl.constexpr, BLOCK: tl.constexpr):
    """flash_attn_with_kvcache's new tokens written into the cache, and kvcache_bounds' key rows, in one launch
    (session 35; it replaced the torch indexing writes, 5-12 small operations per call). Program p = b * STEPS + s
    copies new token s < S_NEW of sequence b (K_NEW, V_NEW (B, S_NEW, H_KV, D), any strides: N_* / NV_*; ROW_ELEMS =
    H_KV x D elements, BLOCK at a time) to cache position LENS[b] + s: row (IDX[b] or b) x SC + that position of the
    cache's rows (K_CACHE, V_CACHE: (rows, H_KV, D), strides C_* / CV_*), or PAGED row BT[b, pos // PAGE] x PAGE + pos %
    PAGE (BT rows of BT_ROW entries). A position outside [0, SC), or a row outside the cache's N_ROWS, is not written
    (where torch indexing raised a device-side error). Programs with s = 0 also store sequence b's BOUNDS.
    ROTARY (1: halves, GPT-NeoX; 2: interleaved pairs, GPT-J; 0: none, STEPS = S_NEW): flash-attn's rotary embedding,
    as api._rotary_qk computes it (float32 products rounded one at a time: the kernel is compiled without FMA
    contraction, so the bits are the torch form's): the first 2 x HALF dims of the new keys rotated at their positions
    before they are written, and query row s < SQ of Q (B, SQ, H, D; strides Q_*, H x D = Q_ROW elements) rotated at
    LENS[b] + s x PER_ROW into Q_OUT (strides QO_*); COS, SIN (RO_LEN, HALF), strides CS_ROW, CS_COL (positions
    clamped into [0, RO_LEN)). Public: every value it loads but the new tokens and q (lengths, rows, pads, the block
    table: declared public; cos and sin: the rotary table, public too), shapes, strides; the new tokens and q reach
    only the stores' data."""
    p = tl.program_id(0)
    b = p // STEPS
    s = p - b * STEPS
    b64 = b.to(tl.int64)
    _kvcache_rows(b, s == 0, LENS, LEFTPAD, IDX, BOUNDS, S_NEW, SC, PAGED, HAS_LEFTPAD, HAS_IDX)
    start = tl.load(LENS + b).to(tl.int64)
    pos = start + s
    inside = (pos >= 0) & (pos < SC) & (s < S_NEW)
    if PAGED:
        page = tl.load(BT + b64 * BT_ROW + pos // PAGE, mask=inside, other=-1).to(tl.int64)
        row = page * PAGE + pos % PAGE
    elif HAS_IDX:
        row = tl.load(IDX + b).to(tl.int64) * SC + pos
    else:
        row = b64 * SC + pos
    inside = inside & (row >= 0) & (row < N_ROWS)
    q_pos = start + s * PER_ROW
    for c in range(0, ROW_ELEMS, BLOCK):
        e = c + tl.arange(0, BLOCK)
        m = e < ROW_ELEMS
        hh = (e // D).to(tl.int64)
        dd = (e - hh * D).to(tl.int64)
        k_at = K_NEW + b64 * N_B + s * N_S + hh * N_H
        kx = tl.load(k_at + dd * N_D, mask=m & (s < S_NEW), other=0.0)
        vx = tl.load(V_NEW + b64 * NV_B + s * NV_S + hh * NV_H + dd * NV_D, mask=m & (s < S_NEW), other=0.0)
        if ROTARY:
            kx = _rotated(kx, k_at, N_D, dd, m & (s < S_NEW), pos, COS, SIN, HALF, RO_LEN, CS_ROW, CS_COL, ROTARY)
        tl.store(K_CACHE + row * C_ROW + hh * C_H + dd * C_D, kx, mask=m & inside)
        tl.store(V_CACHE + row * CV_ROW + hh * CV_H + dd * CV_D, vx, mask=m & inside)
    if ROTARY:
        for c in range(0, Q_ROW, BLOCK):
            e = c + tl.arange(0, BLOCK)
            m = (e < Q_ROW) & (s < SQ)
            hh = (e // D).to(tl.int64)
            dd = (e - hh * D).to(tl.int64)
            q_at = Q + b64 * Q_B + s * Q_S + hh * Q_H
            qx = tl.load(q_at + dd * Q_D, mask=m, other=0.0)
            qx = _rotated(qx, q_at, Q_D, dd, m, q_pos, COS, SIN, HALF, RO_LEN, CS_ROW, CS_COL, ROTARY)
            tl.store(Q_OUT + b64 * QO_B + s * QO_S + hh * QO_H + dd * QO_D, qx, mask=m)


@triton.jit
def _rotated(x, row, stride, dd, m, pos, COS, SIN, HALF, RO_LEN, CS_ROW, CS_COL, ROTARY: tl.constexpr):
    """x (elements dd of a head's row at `row`, stride `stride`) with its first 2 x HALF dims rotated at position pos:
    x c - x' s for the first of each pair, x' s + x c for the second (x' its partner: dim dd +- HALF, ROTARY 1, or dd ^ 1,
    ROTARY 2), in float32, rounded to x's dtype."""
    rot = dd < 2 * HALF
    if ROTARY == 1:
        first = dd < HALF
        j = tl.where(first, dd, dd - HALF)
        partner = tl.where(first, dd + HALF, dd - HALF)
    else:
        first = (dd % 2) == 0
        j = dd // 2
        partner = dd ^ 1
    at = tl.minimum(tl.maximum(pos, 0), RO_LEN - 1) * CS_ROW + j * CS_COL
    cs = tl.load(COS + at, mask=m & rot, other=1.0).to(tl.float32)
    sn = tl.load(SIN + at, mask=m & rot, other=0.0).to(tl.float32)
    xp = tl.load(row + partner * stride, mask=m & rot, other=0.0).to(tl.float32)
    t1 = x.to(tl.float32) * cs
    t2 = xp * sn
    out = tl.where(first, t1 - t2, t2 + t1)
    return tl.where(rot, out.to(x.dtype), x)


KVCACHE_BOUNDS_BLOCK = 128  # sequences a program


def kvcache_bounds_args(lens, leftpad, idx, bounds, s_new, sc, paged, has_leftpad, has_idx):
    """(grid, args, kwargs) of kvcache_bounds: lens, leftpad, idx (B,) int32 (an absent one passed as lens, unread),
    bounds (2B,) int32."""
    batch = lens.shape[0]
    grid = (triton.cdiv(batch, KVCACHE_BOUNDS_BLOCK),)
    return grid, (lens, leftpad, idx, bounds, batch, int(s_new), int(sc)), \
        dict(PAGED=bool(paged), HAS_LEFTPAD=bool(has_leftpad), HAS_IDX=bool(has_idx), BLOCK=KVCACHE_BOUNDS_BLOCK,
             num_warps=4)


KVCACHE_APPEND_BLOCK = 1024  # elements of a new token's row copied per step


def kvcache_append_args(lens, leftpad, idx, bounds, k_new, v_new, k_rows, v_rows, block_table, sc, page, paged,
                        has_leftpad, has_idx, q=None, q_out=None, cos=None, sin=None, per_row=False, interleaved=False):
    """(grid, args, kwargs) of kvcache_append: lens, leftpad, idx (B,) int32 (an absent one passed as lens, unread),
    bounds (2B,) int32, k_new, v_new (B, S_NEW, H_KV, D), k_rows, v_rows the cache's (rows, H_KV, D), block_table (B,
    cols) int32 (paged; else passed as lens, unread), sc the sequences' capacity (the cache's seqlen, or cols x page),
    page the page size (paged; else 1). With cos, sin (RO_LEN, rotary_dim / 2): rotary embeddings, q (B, SQ, H, D)
    rotated into q_out, per_row and interleaved as flash-attn's (else q, q_out, cos, sin passed as lens, unread)."""
    batch, s_new, heads_kv, d = k_new.shape
    bt = block_table if paged else lens
    rotary = cos is not None
    if rotary:
        sq = q.shape[1]
        rot = (q, q_out, cos, sin, sq, q.shape[2] * d, *q.stride(), *q_out.stride(), cos.shape[1], int(bool(per_row)),
               cos.shape[0], *cos.stride())
    else:
        sq = 0
        rot = (lens, lens, lens, lens, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    steps = max(s_new, sq)
    args = (lens, leftpad, idx, bounds, k_new, v_new, k_rows, v_rows, bt, batch, s_new, int(sc), heads_kv * d, d,
            *k_new.stride(), *v_new.stride(), *k_rows.stride(), *v_rows.stride(), bt.stride(0) if paged else 0,
            int(page), k_rows.shape[0], steps) + rot
    return (batch * steps,), args, dict(PAGED=bool(paged), HAS_LEFTPAD=bool(has_leftpad), HAS_IDX=bool(has_idx),
                                        ROTARY=(2 if interleaved else 1) if rotary else 0, BLOCK=KVCACHE_APPEND_BLOCK,
                                        num_warps=4, enable_fp_fusion=False)


def audited_kernels():
    """The guard's binaries for `dhpfa audit` (one per output dtype), and kvcache_bounds' (paged; unpaged with and
    without cache_batch_idx and cache_leftpad): (name, fn, args, kwargs, public_params)."""
    out = []
    for dt, label in ((torch.float16, "fp16"), (torch.bfloat16, "bf16")):
        cu = torch.empty(3, dtype=torch.int32)
        _, args, kwargs = equal_guard_args(torch.empty(2, 70, 3, 64, dtype=dt), torch.empty(2, 3, 70), cu,
                                           torch.empty_like(cu), 70, 90)
        out.append((f"varlen_equal_guard-{label}", varlen_equal_guard, args, kwargs, ("CU_Q", "CU_K")))
    for paged, pad, idx in ((True, False, False), (False, False, False), (False, True, False), (False, False, True),
                            (False, True, True)):
        lens = torch.empty(5, dtype=torch.int32)
        _, args, kwargs = kvcache_bounds_args(lens, torch.empty_like(lens), torch.empty_like(lens),
                                              torch.empty(10, dtype=torch.int32), 1, 300, paged, pad, idx)
        name = "kvcache_bounds" + ("-paged" if paged else "") + ("-leftpad" if pad else "") + ("-idx" if idx else "")
        out.append((name, kvcache_bounds, args, kwargs, ("LENS",) + (("LEFTPAD",) if pad else ())
                    + (("IDX",) if idx else ())))
    for (dt, label), rotary, (paged, pad, idx) in itertools.product(
            ((torch.float16, "fp16"), (torch.bfloat16, "bf16")), (0, 1, 2),
            ((True, False, False), (False, False, False), (False, True, False), (False, False, True),
             (False, True, True))):
        _, args, kwargs = _append_example(dt, paged, pad, idx, rotary)
        name = f"kvcache_append-{label}" + ("-paged" if paged else "") + ("-leftpad" if pad else "") + \
            ("-idx" if idx else "") + ("", "-rotary", "-rotary-interleaved")[rotary]
        out.append((name, kvcache_append, args, kwargs, ("LENS",) + (("BT",) if paged else ())
                    + (("LEFTPAD",) if pad else ())
                    + (("IDX",) if idx else ())))
    return out


def _append_example(dt, paged, pad, idx, rotary=0, b=5, s_new=2, hk=3, d=64, sc=300, page=100, sq=3, h=6):
    """kvcache_append's arguments for one form (the audit's and the tests' example; rotary 0: none, 1: halves, 2:
    interleaved)."""
    lens = torch.empty(b, dtype=torch.int32)
    kn, vn = (torch.empty(b, s_new, hk, d, dtype=dt) for _ in range(2))
    rows = (b * sc, hk, d)
    kr, vr = (torch.empty(rows, dtype=dt) for _ in range(2))
    bt = torch.empty(b, sc // page, dtype=torch.int32)
    rot = {}
    if rotary:
        q = torch.empty(b, sq, h, d, dtype=dt)
        rot = dict(q=q, q_out=torch.empty_like(q), cos=torch.empty(sc, 16, dtype=dt), sin=torch.empty(sc, 16, dtype=dt),
                   per_row=True, interleaved=rotary == 2)
    return kvcache_append_args(lens, torch.empty_like(lens), torch.empty_like(lens), torch.empty(2 * b,
                               dtype=torch.int32), kn, vn, kr, vr, bt, sc, page if paged else 1, paged, pad, idx,
                               **rot)


# A local window's unbounded side (flash-attn's -1): a bound past any sequence length that keeps every sum in int32.
WINDOW_UNBOUNDED = 2 ** 30


def kernel_window(window):
    """flash-attn's window (left, right) as the varlen kernels take it (WIN_LEFT, WIN_RIGHT): a negative side as
    WINDOW_UNBOUNDED. Public: the window."""
    return tuple(int(w) if w >= 0 else WINDOW_UNBOUNDED for w in window)


def softcap_scales(softmax_scale, softcap):
    """(qk_scale, cap_in) of the varlen kernels: with softcap > 0 the score is tanh(q.k * cap_in), cap_in = scale /
    softcap, and qk_scale = softcap * log2 e scales it into the log2 domain; without, qk_scale = scale * log2 e (cap_in
    1.0, unread)."""
    if softcap > 0:
        return float(softcap) * LOG2E, float(softmax_scale) / float(softcap)
    return float(softmax_scale) * LOG2E, 1.0


# The soft-cap's tanh on the GPU builds: MUFU.TANH (session 34); False: the exponential form the interpreter's tiles
# keep (for A/B: scripts/softcap_tanh_ab.py; the audited binaries are the MUFU.TANH ones)
SOFTCAP_MUFU = True


def varlen_launch_args(q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, softmax_scale, causal, config,
                       local=False, window=(-1, -1), softcap=0.0, group=1, splits=1, ws=(None, None), k_stride=1,
                       paged=None, page_blocks=False):
    """(grid, args, kwargs) of one attn_fwd_varlen launch: q, out (TOTAL_Q, H, D), k, v (TOTAL_K, H_KV, D), lse
    (H, TOTAL_Q), cu_seqlens_* int32 (B + 1). max_seqlen_q sizes the grid (cdiv(max_seqlen_q * group, block_m) tiles
    per sequence and group of heads). local: window (left, right), a negative side unbounded; softcap > 0 soft-caps the
    scores (0: off); group: query heads per tile (1, or H / H_KV: grouped-query heads as rows); splits > 1: that many
    programs per tile, each a part of its key blocks, into the workspace ws = (WS_O, WS_L) (varlen_workspace), which
    attn_varlen_combine (varlen_combine_args) merges; k_stride 2: cu_seqlens_k holds a (start, end) pair of rows per
    sequence. paged: (block_table (B, BT_COLS) int32, page_size, pages): k and v are (pages * page_size, H_KV, D)
    rows of a paged cache (PAGED); page_blocks: its per-block form (page_size a multiple of config.block_n). As for
    launch_args, the auditor binds the same arguments."""
    total_q, heads, head_dim = q.shape
    total_k, heads_kv = k.shape[0], k.shape[1]
    if paged is not None:
        total_k = 2 ** 31 - 1  # the offsets are logical lengths: the block table bounds the keys (BT_COLS * PAGE)
    batch = cu_seqlens_q.shape[0] - 1
    grid = (max(1, triton.cdiv(max_seqlen_q * group, config.block_m)), batch * (heads // group)) + \
        ((splits,) if splits > 1 else ())
    left, right = kernel_window(window)
    qk_scale, cap_in = softcap_scales(softmax_scale, softcap)

    def st(t):  # row and head strides; a size-1 dimension's stride never moves an address (see _strides3)
        return (t.stride(0) if t.shape[0] > 1 else 0), (t.stride(1) if t.shape[1] > 1 else 0)
    ws_o, ws_l = ws if splits > 1 else (out, lse)  # unused without a split (any pointers of the right kind)
    args = (q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, ws_o, ws_l, qk_scale, cap_in,
            *st(q), *st(k), *st(v), *st(out), heads, heads_kv, total_q, total_k, left, right, group, splits, k_stride)
    kwargs = dict(HEAD_DIM=head_dim, BLOCK_D=block_d_for(head_dim), BLOCK_M=config.block_m,
                  BLOCK_N=config.block_n, CAUSAL=bool(causal), LOCAL=bool(local),
                  SOFTCAP=0 if not softcap > 0 else 2 if SOFTCAP_MUFU and config != VARLEN_INTERPRETER else 1,
                  SPLIT=splits > 1, GROUP=group > 1, DOT_PRECISION=dot_precision(q.dtype), num_warps=config.num_warps,
                  num_stages=config.num_stages)
    if paged is not None:
        bt, page, pages = paged
        kwargs.update(BT=bt, stride_bt=bt.stride(0) if bt.shape[0] > 1 else 0, PAGE=int(page), NUM_PAGES=int(pages),
                      BT_COLS=bt.shape[1], PAGED=True)
        if page_blocks:  # (the per-key builds keep the parameters they had before this form existed)
            kwargs.update(PAGE_BLOCKS=True)
    return grid, args, kwargs


def varlen_workspace_shapes(total_q, heads, head_dim, splits):
    """The shapes of a split varlen launch's float32 workspace: WS_O (splits, TOTAL_Q, H, D), WS_L (splits, H,
    TOTAL_Q)."""
    return (splits, total_q, heads, head_dim), (splits, heads, total_q)


def varlen_workspace(q, splits):
    """(WS_O, WS_L) (varlen_workspace_shapes), float32, for a split varlen launch."""
    return tuple(torch.empty(shape, dtype=torch.float32, device=q.device)
                 for shape in varlen_workspace_shapes(*q.shape, splits))


def varlen_combine_args(q, out, lse, cu_seqlens_q, max_seqlen_q, group, splits, ws, config):
    """(grid, args, kwargs) of the attn_varlen_combine launch after a split attn_fwd_varlen launch: its own row tiles
    (config.block_m rows; config.block_n parts read at once: variants.varlen_combine_variant) over the rows the attention
    launch covers (max_seqlen_q x group per sequence and group of heads)."""
    total_q, heads, head_dim = q.shape
    batch = cu_seqlens_q.shape[0] - 1
    grid = (max(1, triton.cdiv(max_seqlen_q * group, config.block_m)), batch * (heads // group))
    so = (out.stride(0) if out.shape[0] > 1 else 0), (out.stride(1) if out.shape[1] > 1 else 0)
    args = (ws[0], ws[1], out, lse, cu_seqlens_q, *so, heads, total_q, group, splits)
    kwargs = dict(HEAD_DIM=head_dim, BLOCK_D=block_d_for(head_dim), BLOCK_M=config.block_m, GROUP=group > 1,
                  PARTS=config.block_n, num_warps=config.num_warps, num_stages=1)
    return grid, args, kwargs


def block_d_for(head_dim: int) -> int:
    """Padded head dim for tl.arange (a power of two)."""
    return 1 << (head_dim - 1).bit_length()


def launch_args(kernel, q, k, v, out, lse, softmax_scale, causal, causal_offset, config):
    """(grid, args, kwargs) of one launch of `kernel` ("attn_fwd" or "attn_fwd_tma") on (B, S, H, D) views.

    The auditor's offline compiler binds the same arguments, so the binary it checks is the one that
    `launch` runs. `config` is a variants.TileConfig.
    """
    batch, seq_q, heads, head_dim = q.shape
    seq_k, heads_kv = k.shape[1], k.shape[2]
    block_d = block_d_for(head_dim)
    grid = (triton.cdiv(seq_q, config.block_m), batch * heads)
    if kernel == "attn_fwd":
        tensors = (q, k, v, out, lse, float(softmax_scale) * LOG2E,
                   *_strides3(q), *_strides3(k), *_strides3(v), *_strides3(out))
    elif kernel == "attn_fwd_tma":
        tensors = (_descriptor(q, config.block_m, block_d), _descriptor(k, config.block_n, block_d),
                   _descriptor(v, config.block_n, block_d), _descriptor(out, config.block_m, block_d),
                   lse, float(softmax_scale) * LOG2E, division_magic(heads, "heads"),
                   division_magic(heads // heads_kv, "heads // kv heads"))
    else:
        raise ValueError(f"unknown kernel {kernel!r}")
    args = (*tensors, heads, heads_kv, seq_q, seq_k, int(causal_offset))
    kwargs = dict(HEAD_DIM=head_dim, BLOCK_D=block_d, BLOCK_M=config.block_m,
                  BLOCK_N=config.block_n, CAUSAL=bool(causal), DOT_PRECISION=dot_precision(q.dtype),
                  num_warps=config.num_warps, num_stages=config.num_stages)
    return grid, args, kwargs


KERNELS = {"attn_fwd": attn_fwd, "attn_fwd_tma": attn_fwd_tma}
KERNELS.update({"attn_fwd_varlen" + local + cap + split + group + paged: attn_fwd_varlen for local in ("", "_local")
                for cap in ("", "_softcap") for split in ("", "_split") for group in ("", "_gqa")
                for paged in ("", "_paged", "_paged_blocks")})
KERNELS.update({"attn_varlen_combine" + group: attn_varlen_combine for group in ("", "_gqa")})


def launch(kernel, q, k, v, out, lse, softmax_scale, causal, causal_offset, config):
    grid, args, kwargs = launch_args(kernel, q, k, v, out, lse, softmax_scale, causal, causal_offset, config)
    KERNELS[kernel][grid](*args, **kwargs)


def division_magic(d: int, name: str) -> int:
    """2^32 + ceil(2^32 / d), for block_info.query_tile_magic: for 0 <= n < 2^16 and 1 <= d < 2^16, n // d ==
    ((n * magic) >> 32) - n (ceil(2^32 / d) * d exceeds 2^32 by less than d, so n times the excess stays below 2^32).
    Always >= 2^32, so Triton passes it as int64 whatever d is (one binary). The dividends are program ids of a grid
    axis (at most 65,535 programs) and heads."""
    if not 1 <= d < 1 << 16:
        raise ValueError(f"{name} must be in [1, 65535] for the TMA kernel's tile schedule, got {d}")
    return (1 << 32) + -(-(1 << 32) // d)


def _descriptor(t, block_rows, block_d):
    """4-D TMA descriptor over a (B, S, H, D) view, one (rows x D) tile per load."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    # A size-1 dimension's stride never moves an address; TMA still wants every stride 16-byte aligned.
    strides = [st if n > 1 else 16 for st, n in zip(t.stride(), t.shape)]
    strides[3] = 1
    return TensorDescriptor(t, list(t.shape), strides, [1, block_rows, 1, block_d])


def dot_precision(dtype: torch.dtype) -> str:
    # float32 inputs (interpreter tests only) take the exact path; 16-bit inputs are exact in tf32 anyway.
    return "ieee" if dtype == torch.float32 else "tf32"


def _strides3(t):
    # Batch, head and row strides of a (B, S, H, D) view. A size-1 dimension's stride never moves an
    # address, so it is passed as 0: that keeps the 16-divisibility the variants are compiled for.
    sb, ss, sh, _ = t.stride()
    b, s, h, _ = t.shape
    return (sb if b > 1 else 0), (sh if h > 1 else 0), (ss if s > 1 else 0)
