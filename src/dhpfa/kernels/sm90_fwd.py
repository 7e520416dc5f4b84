"""Hopper attention forward in Gluon (issue 5). The API dispatches attn_fwd_sm90_ws with SPLIT=2 and
PINGPONG on compute capability 9.0 for the head dims in variants.SM90_GLUON (docs/perf-log.md, session 2).

attn_fwd_sm90_ws, warp-specialised: a 1-warp TMA producer loads Q once and K/V blocks into a ring of
slots, K and V each on their own ready/empty mbarriers, over a static schedule of tiles (one per program,
or persistent: one program per SM, causal tiles paired heavy with light). Consumers run FlashAttention-3's
intra-warpgroup overlap (the PV GEMM of block j-1 in flight during block j's softmax; no GEMM in flight
across a loop edge, or ptxas serialises every WGMMA). SPLIT=2 puts two consumer warpgroups (64 rows
each) in separate partitions that share the ring; PINGPONG makes them take turns issuing GEMMs (on
hardware named barriers; session 5 measured why the ring stays on mbarriers: docs/perf-log.md). Unmasked
and masked KV blocks run in separate loops. Q_DOUBLE (shipped at D=128 up to 8K keys): two Q buffers, so the
next tile's Q loads while this tile runs. ptxas places each step's wait for the PV GEMM before the softmax
(it converts P into the registers that GEMM reads), so a consumer's softmax overlaps the other consumer's
GEMMs only; session 9 measured restoring the overlap as a loss (docs/perf-log.md). P waits for its PV GEMM as
16-bit pairs in int32 words (P_PACKED, session 25); the three-consumer builds take their row sums on the tensor cores
(L_MMA: P @ ones beside each PV GEMM, non-causal). attn_fwd_sm90 is the
single-partition base (one warpgroup, a TMA ring, every WGMMA waited on), kept for comparison.
Constant-time rules as in triton_fwd: every loop bound, predicate, barrier phase and coordinate is a
function of program ids, shapes and flags; masking is a select.
"""
import functools
import secrets

import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                              warpgroup_mma_wait)

from .ctmath import LOG2E
from .dispatch import SlidingBase, sm_count


@gluon.constexpr_function
def _acc_layout(num_warps, n):
    """The wgmma accumulator layout of a [rows, n] fp32 tile over num_warps warps (S: n = BLOCK_N; O: HEAD_DIM)."""
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[num_warps, 1], instr_shape=[16, n, 16])


@gluon.constexpr_function
def _o_store_layout(rows, cols, num_warps):
    """O_REG's store layout of a [rows, cols] tile: the accumulator's rows per warp and lane (_acc_layout: warp w rows
    16w.., lane l rows l // 4 and l // 4 + 8), but each thread's columns 8 consecutive ones (lane l % 4 the l % 4-th
    8 of every 32) instead of 2 of every 8, so each thread stores 16 bytes at a time. The conversion from the
    accumulator's layout permutes registers and lanes within each warp only; Triton 3.6 lowers it through a per-warp
    scratch in shared memory (16 STS.128 and 16 LDSM per thread at D=256, 3.9 KB), not through shuffles."""
    reg = [[0, 1], [0, 2], [0, 4], [8, 0]] + [[0, 32 << i] for i in range((cols // 32).bit_length() - 1)]
    lane = [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]]
    warp = [[16 << i, 0] for i in range(num_warps.bit_length() - 1)]
    return gl.DistributedLinearLayout(reg, lane, warp, [], [rows, cols])


@gluon.constexpr_function
def _l_layout(num_warps, on):
    """The row-sum accumulator's layout (L_MMA: [rows, L_COLS] fp32), or None where the sums are not on the tensor
    cores."""
    return _acc_layout(num_warps, L_COLS.value) if on else None


@gluon.jit
def _query_tile(H, H_KV, SEQ_K, CAUSAL_OFFSET, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, CAUSAL: gl.constexpr):
    """(pid_bh, batch, head, kv head, first row, n_blocks) of this program (one tile per program, as in
    kernels/block_info.py: query_tile + kv_bounds, in Gluon; causal tiles heaviest first), all public."""
    if CAUSAL:
        pid_m = gl.num_programs(0) - 1 - gl.program_id(0)
    else:
        pid_m = gl.program_id(0)
    pid_bh = gl.program_id(1)
    h = pid_bh % H
    m0 = pid_m * BLOCK_M
    kv_end = _kv_end(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M, CAUSAL)
    return pid_bh, pid_bh // H, h, h // (H // H_KV), m0, (kv_end + BLOCK_N - 1) // BLOCK_N


@gluon.jit
def _kv_end(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M: gl.constexpr, CAUSAL: gl.constexpr):
    """Keys at or past this are visible to no row of the tile from m0 (public: shapes and program ids)."""
    if CAUSAL:
        return gl.minimum(gl.maximum(m0 + BLOCK_M + CAUSAL_OFFSET, 0), SEQ_K)
    else:
        return SEQ_K


@gluon.jit
def _full_end(m0, SEQ_K, CAUSAL_OFFSET, CAUSAL: gl.constexpr):
    """Keys below this are visible to every query row from m0 on (public: shapes and program ids)."""
    if CAUSAL:
        return gl.minimum(gl.maximum(m0 + CAUSAL_OFFSET + 1, 0), SEQ_K)
    else:
        return SEQ_K


@gluon.jit
def _row_state(m0, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr, s_layout: gl.constexpr,
               o_layout: gl.constexpr):
    """Online-softmax state of BLOCK_M rows from m0 (m = -inf, l = 0, O = 0) and the row/column offsets."""
    row_s: gl.constexpr = gl.SliceLayout(1, s_layout)
    m_i = gl.full([BLOCK_M], float("-inf"), gl.float32, layout=row_s)
    l_i = gl.zeros([BLOCK_M], gl.float32, layout=row_s)
    acc = gl.zeros([BLOCK_M, HEAD_DIM], gl.float32, layout=o_layout)
    offs_m = m0 + gl.arange(0, BLOCK_M, layout=row_s)
    offs_n0 = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, s_layout))
    return m_i, l_i, acc, offs_m, offs_n0


@gluon.jit
def _tanh_mufu(x):
    """tanh(x) by tanh.approx.f32 (one MUFU.TANH; flash-attn's soft-cap uses the same instruction): constant latency,
    no branch; relative error about 2^-11. Session 31 run 5 (H200, window_bench, TFLOPS, same rounds) against the
    portable kernel's 1 - 2 / (2^(2x log2 e) + 1) (MUFU.EX2 + MUFU.RCP + four FP32 operations per score): D=128 16K
    506 / 371, mixed 64-4096 causal 390 / 279, with a 1,023 window 338 / 176; D=256 Gemma-2 16K (window 4,095, cap
    50) 574 / 464; error against float64 (scripts/tanh_accuracy.py): outputs the same (1.8e-3 - 2.3e-3 relative,
    bf16 rounding), LSE within 1.5e-4 (8e-6 with the exponential form)."""
    return gl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=f,f", [x], dtype=gl.float32, is_pure=True, pack=1)


@gluon.jit
def _softmax_block(s_acc, m_i, l_i, offs_m, offs_n0, j, qk_scale, SEQ_K, CAUSAL_OFFSET, BLOCK_N: gl.constexpr,
                   MASKED: gl.constexpr, CAUSAL: gl.constexpr, SUM: gl.constexpr = True, win=None, cap_in=None,
                   ROW_BOUND: gl.constexpr = False):
    """Online-softmax step of block j in the log2 domain (see ctmath.online_softmax_step): masking by a
    select; rows with no visible key keep m = -inf without producing NaN. Returns (p, alpha, m, l).
    win (attn_fwd_sm90_varlen's LOCAL): (left, right), row i sees key j when i + CAUSAL_OFFSET - left <= j <= i +
    CAUSAL_OFFSET + right (and j < SEQ_K), in place of the causal mask. cap_in (SOFTCAP): the scores become tanh(s *
    cap_in) (_tanh_mufu; qk_scale then carries softcap * log2 e), before the mask. ROW_BOUND (CAUSAL, no window): the
    mask as one bound per row (below)."""
    if cap_in is not None:
        s_acc = _tanh_mufu(s_acc * cap_in)
    if MASKED:
        offs_n = j * BLOCK_N + offs_n0
        if ROW_BOUND and CAUSAL and win is None:  # one bound per row: the last key it sees (-1: none, rows marked by
            # a negative position), so a score costs one compare and one select. Session 38 (timeline build): with the
            # key-length, row and causal tests apart a diagonal 64 x 128 block cost about 1,100 cycles more than a full
            # one; graph replay x1.04 at D=128 causal 512 (n64s3_bal), x1.11 (n128s2). The dense and Hopper varlen
            # builds' causal tiles (_consume_tile, not PACK): in the split-KV decode builds it made the code 14% longer
            # with a spill; the Hopper varlen builds gained 0-3% with it (session 38 call 10; their whole GPU file in
            # session 39 call 5).
            last = gl.where(offs_m >= 0, gl.minimum(offs_m + CAUSAL_OFFSET, SEQ_K - 1), -1)
            visible = offs_n[None, :] <= last[:, None]
        else:
            visible = (offs_n < SEQ_K)[None, :] & (offs_m >= 0)[:, None]
            if win is not None:
                rel = offs_n[None, :] - (offs_m[:, None] + CAUSAL_OFFSET)
                visible = visible & (rel <= win[1]) & (rel >= -win[0])
            elif CAUSAL:
                visible = visible & (offs_n[None, :] <= offs_m[:, None] + CAUSAL_OFFSET)
        s_acc = gl.where(visible, s_acc, float("-inf"))
    m_new = gl.maximum(m_i, gl.max(s_acc, 1) * qk_scale)
    if MASKED:
        m_sub = gl.where(m_new == float("-inf"), 0.0, m_new)
    else:
        m_sub = m_new
    p = gl.exp2(s_acc * qk_scale - m_sub[:, None])
    alpha = gl.exp2(m_i - m_sub)
    if SUM:
        l_i = l_i * alpha + gl.sum(p, 1)
    return p, alpha, m_new, l_i


@gluon.jit
def _pack_shift(ph, SLOTS: gl.constexpr):
    """PACK: log2 of the slots each of a tile's ph query heads owns, the largest power of two at most SLOTS / ph
    (SLOTS 8 or 16; variants.pack_blocks puts at most SLOTS / 2^k heads whose positions take 2^k slots in a tile), by
    comparisons: the slot arithmetic below is shifts and masks, not integer divisions (a runtime divisor costs a call
    to a division routine each; session 17). Public: shapes."""
    sh = (ph * 2 <= SLOTS).to(gl.int32) + (ph * 4 <= SLOTS).to(gl.int32) + (ph * 8 <= SLOTS).to(gl.int32)
    if SLOTS >= 16:  # 128-row packed tiles (session 18)
        sh += (ph * 16 <= SLOTS).to(gl.int32)
    return sh


@gluon.jit
def _pack_block(bh, H, H_KV, HEADS):
    """PACK: (ph, nh, head0, row0) of tile bh's block of query heads. A key/value head's group of g = HEADS / H_KV query
    heads runs as H / H_KV blocks of ph = cdiv(g, H / H_KV) heads (variants.pack_heads), the last block with fewer
    where ph does not divide g: nh heads of this block are real, the first being head0 of its sequence (row0 of LSE's
    (batch x head) rows). Public: shapes and the program id."""
    g = HEADS // H_KV
    per_kv = H // H_KV
    ph = (g + per_kv - 1) // per_kv
    hb = bh % H
    kv = hb // per_kv
    blk = hb - kv * per_kv
    head0 = kv * g + blk * ph
    return ph, gl.minimum(ph, g - blk * ph), head0, (bh // H).to(gl.int64) * HEADS + head0


@gluon.jit
def _pack_rows(rows, SEQ_Q, pk, PACK: gl.constexpr, SLOTS: gl.constexpr):
    """PACK (packed grouped-query tiles): (head, query position, valid) of tile rows. The tile is SLOTS slots of PACK
    rows; each of the block's ph query heads (pk: _pack_block) owns 2^_pack_shift slots in a row, of which the first
    cdiv(SEQ_Q, PACK) hold its positions, PACK per slot (so with few heads each sits in its own warps' rows, as with one
    16-row slot a head). Rows of slots past the block's nh real heads, and positions past SEQ_Q, are padding (not
    valid). Public: shapes, row ids."""
    gl.static_assert(SLOTS <= 16, "packed tiles: at most 16 slots")
    sh = _pack_shift(pk[0], SLOTS)
    slot = rows // PACK
    head = slot >> sh
    pos = (slot & ((1 << sh) - 1)) * PACK + rows % PACK
    return head, pos, (head < pk[1]) & (pos < SEQ_Q)


@gluon.jit
def _pack_lse_offsets(rows, SEQ_Q, pk, BLOCK_M: gl.constexpr, PACK: gl.constexpr):
    """PACK: (offsets into LSE (B, H, SEQ_Q), mask) of a tile's rows (_pack_rows; pk: _pack_block)."""
    head, pos, ok = _pack_rows(rows, SEQ_Q, pk, PACK, BLOCK_M // PACK)
    return (pk[3] + head) * SEQ_Q + pos, ok


@gluon.jit
def _store_o(o_desc, o_smem, b, m0, SEQ_Q, pk, BLOCK_M: gl.constexpr, PACK: gl.constexpr, ROW0: gl.constexpr = 0,
             TILE_M: gl.constexpr = 0):
    """PACK: the TMA stores of a tile's O staged in o_smem, one per slot of PACK rows that holds one of the block's
    real query heads (_pack_rows, pk: _pack_block; m0 = 0), each clipped at SEQ_Q rows by TMA. TILE_M (two consumers
    on a TILE_M-row packed tile, session 18): o_smem holds this consumer's BLOCK_M rows from ROW0. Public: shapes."""
    sh = _pack_shift(pk[0], (TILE_M if TILE_M else BLOCK_M) // PACK)
    for j in gl.static_range(BLOCK_M // PACK):
        jt = ROW0 // PACK + j  # the slot's index in the tile (constexpr)
        pos0 = (jt & ((1 << sh) - 1)) * PACK
        if ((jt >> sh) < pk[1]) & (pos0 < SEQ_Q):
            tma.async_copy_shared_to_global(o_desc, [b, m0 + pos0, pk[2] + (jt >> sh), 0],
                                            o_smem.slice(j * PACK, PACK, dim=1))


@gluon.jit
def _epilogue(o_desc, LSE, acc, m_i, l_i, offs_m, b, h, pid_bh, m0, SEQ_Q, o_smem, BLOCK_M: gl.constexpr,
              HEAD_DIM: gl.constexpr, o_layout: gl.constexpr, DEFER_STORE: gl.constexpr = False,
              PACK: gl.constexpr = 0, pk=None, ROW0: gl.constexpr = 0, TILE_M: gl.constexpr = 0,
              VARLEN: gl.constexpr = False, vl=None, o_ptrs=None, O_WIDE: gl.constexpr = True):
    """LSE (-inf for rows with no visible key) and O = acc / l through a TMA store (clips rows past SEQ_Q).
    o_smem is the caller's Q tile: every GEMM that read it has completed, and O's tile has Q's shape,
    dtype and shared layout, so it needs no buffer of its own. DEFER_STORE (O in a buffer of its own): the
    store is waited for (until it has read the buffer) before the buffer's next write, and once at the
    consumer's end, instead of at once, so the next tile starts without waiting for it (session 10). PACK: the
    tile holds a block of query heads in slots of PACK rows (pk: _pack_block; _pack_lse_offsets, _store_o); TILE_M:
    these are the BLOCK_M rows from ROW0 of a TILE_M-row packed tile (two consumers, session 18). VARLEN
    (attn_fwd_sm90_varlen): m0 and SEQ_Q are rows of one packed sequence, vl = (its first row, the LSE offset of its
    row 0 for head h); O goes through the sliding descriptor (_slide), which clips the rows past SEQ_Q. o_ptrs (O_REG;
    session 39): (O's pointer, its batch, row and head strides): O is stored from registers, rows past SEQ_Q and columns
    past O's head dim masked off (public predicates), and o_smem is not touched; O_WIDE: in 16-byte stores
    (_o_store_layout), else 4-byte ones from the accumulator's layout (no shared memory at all; O's head dim must be
    HEAD_DIM: launch_args checks)."""
    dtype: gl.constexpr = o_desc.dtype
    empty_row = l_i == 0.0
    l_safe = gl.where(empty_row, 1.0, l_i)
    lse = gl.where(empty_row, float("-inf"), (m_i + gl.log2(l_safe)) * 0.6931471805599453)
    if PACK:
        rows = gl.arange(0, BLOCK_M, layout=offs_m.type.layout)
        if TILE_M:
            rows = rows + ROW0
        lse_offs, lse_ok = _pack_lse_offsets(rows, SEQ_Q, pk, TILE_M if TILE_M else BLOCK_M, PACK)
        gl.store(LSE + lse_offs, lse, mask=lse_ok)
    elif VARLEN:
        gl.store(LSE + vl[1] + offs_m, lse, mask=offs_m < SEQ_Q)
    else:
        gl.store(LSE + pid_bh.to(gl.int64) * SEQ_Q + offs_m, lse, mask=offs_m < SEQ_Q)
    out = acc * gl.convert_layout(1.0 / l_safe, gl.SliceLayout(1, o_layout))[:, None]
    if o_ptrs is not None:  # O_REG: straight from the accumulator's registers
        o_ptr, o_sb, o_ss, o_sh = o_ptrs  # strides: multiples of 8 elements (launch_args checks)
        if O_WIDE:  # each thread's 8 columns are 16 aligned bytes (a conversion through a little shared memory)
            st_layout: gl.constexpr = _o_store_layout(BLOCK_M, HEAD_DIM, o_layout.warps_per_cta[0])
            out_st = gl.convert_layout(out.to(dtype), st_layout)
        else:  # the accumulator's layout: each thread's column pairs, a word each
            st_layout: gl.constexpr = o_layout
            out_st = out.to(dtype)
        rows = m0 + gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, st_layout))
        cols = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(0, st_layout))
        base = o_ptr + gl.multiple_of(b.to(gl.int64) * o_sb, 8) + gl.multiple_of(h.to(gl.int64) * o_sh, 8)
        row_offs = gl.multiple_of(rows.to(gl.int64) * o_ss, 8)
        mask = (rows < SEQ_Q)[:, None]
        if O_WIDE:  # the columns past O's head dim (D=192 runs as 256: kernel_head_dim), in eights: one predicate per
            mask = mask & (cols // 8 < o_desc.shape[3] // 8)[None, :]  # 16-byte store (the head dim is a multiple of 8)
        gl.store(base + row_offs[:, None] + cols[None, :], out_st, mask=mask)
        return
    if DEFER_STORE:  # the previous tile's store has read the buffer
        tma.store_wait(pendings=0)
    o_smem.reshape([BLOCK_M, HEAD_DIM]).store(out.to(dtype))
    fence_async_shared()
    if PACK:
        _store_o(o_desc, o_smem, b, m0, SEQ_Q, pk, BLOCK_M, PACK, ROW0, TILE_M)
    elif VARLEN:
        s_row, r_row = _slide(vl[0], m0, SEQ_Q, BLOCK_M)
        tma.async_copy_shared_to_global(o_desc, [s_row, r_row, h, 0], o_smem)
    else:
        tma.async_copy_shared_to_global(o_desc, [b, m0, h, 0], o_smem)
    if not DEFER_STORE:
        tma.store_wait(pendings=0)


# Shape arguments the kernels are not specialised on. Triton specialises an integer argument equal to 1 (a constant)
# or divisible by 16 (an alignment hint) by default, so one variant would compile to up to three binaries per
# argument depending on the call's shapes, and the audit (which compiles one shape) would not read the binary that
# other shapes launch. Without it every shape of a variant launches the one audited binary (session 16; the Triton
# kernels had this from the start: triton_fwd.SHAPE_ARGS). NONCE is odd and at least 2^62, so it has one class.
SHAPE_ARGS = ["BH", "H", "H_KV", "SEQ_Q", "SEQ_K", "CAUSAL_OFFSET"]
O_STRIDE_ARGS = ["O_SB", "O_SS", "O_SH"]  # O_REG's strides of O: public shape values, unspecialised as the shapes


@gluon.jit(do_not_specialize=SHAPE_ARGS[1:])
def attn_fwd_sm90(q_desc, k_desc, v_desc, o_desc, LSE, qk_scale,
                  H, H_KV, SEQ_Q, SEQ_K, CAUSAL_OFFSET,
                  BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
                  CAUSAL: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr):
    dtype: gl.constexpr = q_desc.dtype
    s_layout: gl.constexpr = _acc_layout(num_warps, BLOCK_N)
    o_layout: gl.constexpr = _acc_layout(num_warps, HEAD_DIM)
    p_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2)
    row_o: gl.constexpr = gl.SliceLayout(1, o_layout)

    pid_bh, b, h, h_kv, m0, n_blocks = _query_tile(H, H_KV, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, CAUSAL)

    q_smem = gl.allocate_shared_memory(dtype, [1, BLOCK_M, 1, HEAD_DIM], q_desc.layout)
    k_ring = gl.allocate_shared_memory(dtype, [STAGES, 1, BLOCK_N, 1, HEAD_DIM], k_desc.layout)
    v_ring = gl.allocate_shared_memory(dtype, [STAGES, 1, BLOCK_N, 1, HEAD_DIM], v_desc.layout)
    q_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    mbarrier.init(q_bar, count=1)
    for s in gl.static_range(STAGES):
        mbarrier.init(ready.index(s), count=1)
    kv_bytes: gl.constexpr = 2 * k_desc.block_type.nbytes

    mbarrier.expect(q_bar, q_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(q_desc, [b, m0, h, 0], q_bar, q_smem)
    for s in gl.static_range(STAGES - 1):  # prologue: the first STAGES - 1 blocks (public predicate)
        go = s < n_blocks
        mbarrier.expect(ready.index(s), kv_bytes, pred=go)
        tma.async_copy_global_to_shared(k_desc, [b, s * BLOCK_N, h_kv, 0], ready.index(s), k_ring.index(s), pred=go)
        tma.async_copy_global_to_shared(v_desc, [b, s * BLOCK_N, h_kv, 0], ready.index(s), v_ring.index(s), pred=go)

    m_i, l_i, acc, offs_m, offs_n0 = _row_state(m0, BLOCK_M, BLOCK_N, HEAD_DIM, s_layout, o_layout)
    q_tile = q_smem.reshape([BLOCK_M, HEAD_DIM])
    mbarrier.wait(q_bar, 0)

    for j in range(n_blocks):
        # issue the load STAGES - 1 blocks ahead; its slot was read by block j - 1, whose WGMMAs are done
        nxt = j + STAGES - 1
        go = nxt < n_blocks
        ns = nxt % STAGES
        mbarrier.expect(ready.index(ns), kv_bytes, pred=go)
        tma.async_copy_global_to_shared(k_desc, [b, nxt * BLOCK_N, h_kv, 0], ready.index(ns), k_ring.index(ns),
                                        pred=go)
        tma.async_copy_global_to_shared(v_desc, [b, nxt * BLOCK_N, h_kv, 0], ready.index(ns), v_ring.index(ns),
                                        pred=go)

        s_idx = j % STAGES
        mbarrier.wait(ready.index(s_idx), (j // STAGES) & 1)
        k_tile = k_ring.index(s_idx).reshape([BLOCK_N, HEAD_DIM])
        v_tile = v_ring.index(s_idx).reshape([BLOCK_N, HEAD_DIM])
        s_acc = warpgroup_mma(q_tile, k_tile.permute((1, 0)), gl.zeros([BLOCK_M, BLOCK_N], gl.float32, s_layout),
                              use_acc=False, is_async=True)
        s_acc = warpgroup_mma_wait(num_outstanding=0, deps=(s_acc,))

        p, alpha, m_i, l_i = _softmax_block(s_acc, m_i, l_i, offs_m, offs_n0, j, qk_scale, SEQ_K, CAUSAL_OFFSET,
                                            BLOCK_N, True, CAUSAL)
        acc = acc * gl.convert_layout(alpha, row_o)[:, None]
        p_op = gl.convert_layout(p.to(dtype), p_layout)
        acc = warpgroup_mma(p_op, v_tile, acc, is_async=True)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))

    mbarrier.invalidate(q_bar)
    for s in gl.static_range(STAGES):
        mbarrier.invalidate(ready.index(s))

    _epilogue(o_desc, LSE, acc, m_i, l_i, offs_m, b, h, pid_bh, m0, SEQ_Q, q_smem, BLOCK_M, HEAD_DIM, o_layout)


@gluon.jit
def _unit_count(SEQ_Q, BH, BLOCK_M: gl.constexpr, CAUSAL: gl.constexpr):
    """Work units of the static schedule: one query tile each, or (causal) a pair of tiles of one head, the
    heaviest with the lightest, so every unit costs about the same number of KV blocks. Public."""
    num_m = (SEQ_Q + BLOCK_M - 1) // BLOCK_M
    if CAUSAL:
        return BH * ((num_m + 1) // 2)
    else:
        return BH * num_m


@gluon.jit
def _unit_tiles(u, SEQ_Q, BLOCK_M: gl.constexpr, CAUSAL: gl.constexpr, LIGHT_FIRST: gl.constexpr = False):
    """(bh, tiles in unit u, its first tile's row block, step to the second). Units are head-major, so
    programs running side by side read the same head's K/V (L2 reuse). Causal: tile num_m - 1 - k (heavy)
    then tile k; the middle unit of an odd num_m has one tile. LIGHT_FIRST (session 40): tile k first, then
    tile num_m - 1 - k, whose key blocks start with the light tile's, so it reads those again from L2 right after
    (heavy first, the light tile read them a whole tile later, from DRAM where L2 had evicted them). All public:
    shapes and the unit index."""
    num_m = (SEQ_Q + BLOCK_M - 1) // BLOCK_M
    if CAUSAL:
        half = (num_m + 1) // 2
        k = u % half
        n_tiles = 2 - ((num_m % 2 == 1) & (k == half - 1)).to(gl.int32)
        if LIGHT_FIRST:
            return u // half, n_tiles, k, num_m - 1 - 2 * k
        return u // half, n_tiles, num_m - 1 - k, 2 * k + 1 - num_m
    else:
        return u // num_m, 1, u % num_m, 0


@gluon.jit
def _kv_blocks(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, CAUSAL: gl.constexpr):
    """KV blocks the tile from row m0 visits: at least one (a tile with no visible key still reads a block
    and writes O = 0, LSE = -inf), so producer and consumers agree on every ring position. Public."""
    return gl.maximum((_kv_end(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M, CAUSAL) + BLOCK_N - 1) // BLOCK_N, 1)


@gluon.constexpr_function
def cluster_even(head_dim, block_n):
    """CLUSTER: whether the two parts split a tile's key blocks evenly (head dims up to 64 on 128-key blocks, where a
    block takes long beside the meeting; session 44 calls 4, 9 and 14: x1.006-1.05 at 768-4,096 keys) rather than part 1
    taking one block fewer than half (_split_kv_unit)."""
    return head_dim <= 64 and block_n == 128


# CLUSTER: tiles of at most this many rows below SEQ_Q split their pairs' key blocks evenly at every head dim (session
# 48): their meeting copies that many O rows (_cluster_copy_bytes), less than a key block's time, so the odd part's
# hand-over need not run beside an extra block of the even part's (decode calls: 1-32 query rows a tile).
CLUSTER_EVEN_ROWS = gl.constexpr(32)


@gluon.jit
def _cluster_split_even(SEQ_Q, m0, EVEN: gl.constexpr):
    """CLUSTER: whether the tile from row m0 splits its pairs' blocks evenly: EVEN (cluster_even), or at most
    CLUSTER_EVEN_ROWS rows below SEQ_Q. Public."""
    return (SEQ_Q - m0 <= CLUSTER_EVEN_ROWS) | EVEN


@gluon.constexpr_function
def _bit_reverse(r, n):
    """r's bits reversed within log2(n) bits (n a power of two)."""
    bits = n.bit_length() - 1
    return int(format(r, f"0{bits}b")[::-1], 2) if bits else 0


@gluon.jit
def _split_kv_unit(n, part, PARTS: gl.constexpr = 2, CLUSTER: gl.constexpr = 0, even=False,
                   CLUSTER_N: gl.constexpr = 2):
    """SPLIT_KV: (first block, block count) of part 0 .. PARTS - 1 of a tile's n key blocks, ceil(n / PARTS) each
    and the rest to the last (none for the later parts of short tiles). CLUSTER: pair k (parts 2k, 2k + 1, one cluster;
    two parts: pair 0, the whole tile) the k-th ceil(n / (PARTS / 2)) blocks, of which the odd part takes the first
    (p - 1) // 2 of its pair's p and the even part the rest, so the odd part's hand-over runs beside the even one's
    last block; where `even` (_cluster_split_even, public) the first p // 2. CLUSTER_N = 4 / 8: cluster k (parts
    CLUSTER_N k ..) the k-th ceil(n / (PARTS / CLUSTER_N)) blocks, split as evenly as they go (the extra ones to ranks 0,
    2, 1 in turn for four, 0, 4, 2, 6, 1, 5, 3 for eight: the receivers first). Public: a block count and the program
    id."""
    if CLUSTER and CLUSTER_N >= 4:
        n_q = (n + PARTS // CLUSTER_N - 1) // (PARTS // CLUSTER_N)
        q_lo = (part // CLUSTER_N) * n_q
        q_cnt = gl.maximum(gl.minimum(n - q_lo, n_q), 0)
        few = q_cnt // CLUSTER_N
        extra = q_cnt % CLUSTER_N
        r = part % CLUSTER_N
        # rank R's count: one extra where its bit-reversed rank is below `extra` (the receivers first: 0, 2, 1, 3 /
        # 0, 4, 2, 6, 1, 5, 3, 7); the first block past the counts of the ranks below
        n_cnt = few + (extra > _bit_reverse(CLUSTER_N - 1, CLUSTER_N)).to(gl.int32)
        for i in gl.static_range(CLUSTER_N - 1):  # ranks CLUSTER_N - 2 down to 0
            n_cnt = gl.where(r == CLUSTER_N - 2 - i,
                             few + (extra > _bit_reverse(CLUSTER_N - 2 - i, CLUSTER_N)).to(gl.int32), n_cnt)
        j_lo = q_lo
        for R in gl.static_range(CLUSTER_N - 1):
            j_lo += gl.where(r > R, few + (extra > _bit_reverse(R, CLUSTER_N)).to(gl.int32), 0)
    elif CLUSTER:
        n_pair = (n + PARTS // 2 - 1) // (PARTS // 2)
        p_lo = (part // 2) * n_pair
        p_cnt = gl.maximum(gl.minimum(n - p_lo, n_pair), 0)
        n1 = gl.where(even, p_cnt // 2, gl.maximum(p_cnt - 1, 0) // 2)
        j_lo = p_lo + gl.where(part % 2 == 0, n1, 0)
        n_cnt = gl.where(part % 2 == 0, p_cnt - n1, n1)
    else:
        n_part = (n + PARTS - 1) // PARTS
        j_lo = part * n_part
        n_cnt = gl.maximum(gl.minimum(n - j_lo, n_part), 0)
    return j_lo, n_cnt


@gluon.jit
def _load_q(q_desc, q_smem, bar, first, bh, m0, H, SPLIT: gl.constexpr, pred, PACK_SLOTS: gl.constexpr = 0,
            SEQ_Q=None, pk=None, swap=0):
    """Q of the tile from row m0 of head bh: SPLIT row pieces into buffers first, first + 1, ... on `bar`.
    PACK_SLOTS (SPLIT = 1, packed grouped-query tiles, m0 = 0): bh is a block of query heads (pk); the tile's slots of
    `rows` rows (the descriptor's blocks) take their heads' positions as _pack_rows lays them out, one TMA copy each.
    Padding slots (past the block's heads, or past a head's positions) are loaded from rows past SEQ_Q, which TMA fills
    with zeros without reading memory (as it does for the rows past SEQ_Q of a head's last slot). SPLIT = 2 (two
    consumers on a packed tile, session 18): slots 0 .. PACK_SLOTS / 2 - 1 into buffer first, the rest into
    first + 1. swap (SPLIT = 2, BALANCE; public: the tile's index in its unit): 1 loads the two row pieces into each
    other's buffers."""
    rows: gl.constexpr = q_desc.block_type.shape[1]
    if PACK_SLOTS:
        sh = _pack_shift(pk[0], PACK_SLOTS)
        mbarrier.expect(bar, PACK_SLOTS * q_desc.block_type.nbytes, pred=pred)
        per_buf: gl.constexpr = PACK_SLOTS // SPLIT  # slots per consumer buffer
        for j in gl.static_range(PACK_SLOTS):
            pos0 = (j & ((1 << sh) - 1)) * rows
            pad = ((j >> sh) >= pk[1]) | (pos0 >= SEQ_Q)
            buf = q_smem.index(first + j // per_buf).slice((j % per_buf) * rows, rows, dim=1)
            tma.async_copy_global_to_shared(q_desc, [bh // H, m0 + gl.where(pad, SEQ_Q, pos0),
                                                     pk[2] + gl.minimum(j >> sh, pk[1] - 1), 0], bar, buf, pred=pred)
    else:
        mbarrier.expect(bar, SPLIT * q_desc.block_type.nbytes, pred=pred)
        for w in gl.static_range(SPLIT):
            tma.async_copy_global_to_shared(q_desc, [bh // H, m0 + (swap ^ w) * rows, bh % H, 0], bar,
                                            q_smem.index(first + w), pred=pred)


@gluon.jit
def _ws_producer(rt, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr,
                 SPLIT: gl.constexpr, CAUSAL: gl.constexpr, SPLIT_K: gl.constexpr = False,
                 Q_DOUBLE: gl.constexpr = False, PAIRED: gl.constexpr = True, PACK: gl.constexpr = 0,
                 BALANCE: gl.constexpr = False, TRACE: gl.constexpr = False, LIGHT_FIRST: gl.constexpr = False):
    """One warp: for each tile of this program, Q (SPLIT row pieces, one per consumer) once the consumers
    have released the previous Q, then its K/V blocks into the ring as slots come free. The ring position
    runs on across tiles. K and V slots have ready/empty barriers of their own (ready_k, empty_k, ...).
    SPLIT_K: block j of a tile goes to consumer j % 2's own sub-ring of STAGES slots (slots W * STAGES ..),
    at that consumer's own position, which runs on across tiles (see _ws_consumer for why).
    Q_DOUBLE: Q has two buffers (tile i in buffer i % 2); the next tile's Q is loaded during this tile, right
    after its block min(1, n - 1) (whose K slot comes free when the previous tile's last QK^T has completed,
    as its Q buffer does), instead of when this tile's last QK^T has completed: it is then in place when the
    consumers finish this tile (session 9).
    PAIRED (causal): the schedule's units pair a heavy and a light tile (_unit_count); else one tile each.
    PACK (session 18): each tile is a packed block of query heads (_pack_block), its slots loaded by _load_q.
    BALANCE (_ws_consumer's): the second tile of a causal unit has its two row halves' Q in each other's buffers.
    rt: the kernel's runtime arguments the producer uses (attn_fwd_sm90_ws); TRACE: and LSE after them."""
    (q_desc, k_desc, v_desc, q_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v, BH, H, H_KV,
     SEQ_Q, SEQ_K, CAUSAL_OFFSET) = rt[:18]
    if TRACE:
        LSE = rt[18]
    c = 0  # ring position of the tile's first block
    if SPLIT_K:
        c_1 = 0  # consumer 1's sub-ring position (c is consumer 0's)
    i = 0  # tiles done by this program
    if Q_DOUBLE:  # the first tile's Q, into buffer 0 (fresh: no release to wait for)
        bh0, _n0, mb0, _s0 = _unit_tiles(gl.program_id(0), SEQ_Q, BLOCK_M, CAUSAL and PAIRED, LIGHT_FIRST)
        _load_q(q_desc, q_smem, q_bar.index(0), 0, bh0, mb0 * BLOCK_M, H, SPLIT, True)
    for u in range(gl.program_id(0), _unit_count(SEQ_Q, BH, BLOCK_M, CAUSAL and PAIRED), gl.num_programs(0)):
        bh, n_tiles, mb, step = _unit_tiles(u, SEQ_Q, BLOCK_M, CAUSAL and PAIRED, LIGHT_FIRST)
        b = bh // H
        h_kv = (bh % H) // (H // H_KV)
        for t in range(n_tiles):
            m0 = (mb + t * step) * BLOCK_M
            if TRACE:  # the tile's record (trace_timeline.py): Q's wait, then per block the K and V waits
                tr = _trace_record(LSE, BH, SEQ_Q, 2, i)
            if Q_DOUBLE:  # the next tile of this program: the same unit's second, or the next unit's first
                last_t = t + 1 >= n_tiles
                u_next = gl.where(last_t, u + gl.num_programs(0), u)
                has_next = u_next < _unit_count(SEQ_Q, BH, BLOCK_M, CAUSAL and PAIRED)
                bh_u, _n_u, mb_u, _s_u = _unit_tiles(u_next, SEQ_Q, BLOCK_M, CAUSAL and PAIRED, LIGHT_FIRST)
                bh_next = gl.where(last_t, bh_u, bh)
                m0_next = gl.where(last_t, mb_u * BLOCK_M, m0 + step * BLOCK_M)
                swap_next = gl.where(last_t, 0, t + 1) if BALANCE else 0
            else:
                if TRACE:
                    _stamp(tr, 0)
                mbarrier.wait(q_empty, (i & 1) ^ 1)
                if TRACE:
                    _stamp(tr, 1)
                if PACK:
                    _load_q(q_desc, q_smem, q_bar, 0, bh, m0, H, SPLIT, True, BLOCK_M // PACK, SEQ_Q,
                            _pack_block(bh, H, H_KV, q_desc.shape[2]))
                else:
                    _load_q(q_desc, q_smem, q_bar, 0, bh, m0, H, SPLIT, True, swap=t if BALANCE else 0)
            n = _kv_blocks(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, CAUSAL)
            for j in range(n):  # K and V slots have barriers of their own: K is released after QK^T,
                if SPLIT_K:  # V after PV, so K of a later block can load while V is still read
                    reader = j % 2
                    pos = c + (c_1 - c) * reader + j // 2
                    s = reader * STAGES + pos % STAGES
                    phase = ((pos // STAGES) & 1) ^ 1
                else:
                    s = (c + j) % STAGES
                    phase = (((c + j) // STAGES) & 1) ^ 1
                if TRACE:
                    tr_j = tr + TRACE_BLOCK0 + 3 * gl.minimum(j, TRACE_P_BLOCKS - 1)
                    _stamp(tr_j, 0)
                mbarrier.wait(empty_k.index(s), phase)
                if TRACE:
                    _stamp(tr_j, 1)
                mbarrier.expect(ready_k.index(s), k_desc.block_type.nbytes)
                tma.async_copy_global_to_shared(k_desc, [b, j * BLOCK_N, h_kv, 0], ready_k.index(s), k_ring.index(s))
                mbarrier.wait(empty_v.index(s), phase)
                if TRACE:
                    _stamp(tr_j, 2)
                mbarrier.expect(ready_v.index(s), v_desc.block_type.nbytes)
                tma.async_copy_global_to_shared(v_desc, [b, j * BLOCK_N, h_kv, 0], ready_v.index(s), v_ring.index(s))
                if Q_DOUBLE:
                    if j == gl.minimum(n - 1, 1):  # the next tile's Q (fill (i + 1) // 2 of its buffer)
                        buf = (i + 1) % 2
                        if TRACE:  # Q_DOUBLE: the wait for the next tile's Q buffer, in this tile's record
                            _stamp(tr, 0)
                        mbarrier.wait(q_empty.index(buf), (((i + 1) // 2) & 1) ^ 1, pred=has_next)
                        if TRACE:
                            _stamp(tr, 1)
                        _load_q(q_desc, q_smem, q_bar.index(buf), buf * SPLIT, bh_next, m0_next, H, SPLIT,
                                has_next, swap=swap_next)
            if TRACE:
                _stamp(tr, 2)
                _stamp(tr, 4, n)
            if SPLIT_K:
                c += (n + 1) // 2
                c_1 += n // 2
            else:
                c += n
            i += 1


# Ping-pong turns on hardware named barriers, as FlashAttention-3 does: consumer warpgroup w waits with
# bar.sync on id TURN_BASE + w until the warpgroup before it in the rotation has arrived (bar.arrive) on
# it; every thread of both arrives, 256 in all, so no warpgroup bar.sync is needed before the signal, as
# Triton 3.6 puts before a one-thread mbarrier arrive. Ids count down from 15 (two warpgroups: 14, 15;
# three: 13, 14, 15); Triton 3.6 takes 0-3 for its own barriers (tests/test_sm90_fwd.py checks).
TURN_IDS = (13, 14, 15)


def _turn_asm(op, bar_id):
    # 256 threads: the waiting and the signalling warpgroup; the mov gives inline_asm the result it needs
    return gl.constexpr(f"bar.{op} {bar_id}, 256;\nmov.u32 $0, $1;")


_BAR_SYNC_13, _BAR_SYNC_14, _BAR_SYNC_15 = (_turn_asm("sync", i) for i in TURN_IDS)
_BAR_ARRIVE_13, _BAR_ARRIVE_14, _BAR_ARRIVE_15 = (_turn_asm("arrive", i) for i in TURN_IDS)
# attn_fwd_sm90_varlen: consumer 0 has fixed a V block up (_ws_consumer_varlen); 12 is free of Triton's and the turns'
_BAR_SYNC_12, _BAR_ARRIVE_12 = _turn_asm("sync", 12), _turn_asm("arrive", 12)


@gluon.jit
def _named_barrier(ASM: gl.constexpr):
    """One named-barrier instruction per thread of the warpgroup (a [128] tensor: one element a thread)."""
    gl.static_assert(gl.num_warps() == 4, "the turns are taken by one-warpgroup consumer partitions")
    one_per_thread: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    gl.inline_asm_elementwise(ASM, "=r,r", [gl.full([128], 0, gl.int32, one_per_thread)], dtype=gl.int32,
                              is_pure=False, pack=1)


# TRACE (a timeline build for experiments, never shipped: scripts/trace_timeline.py): the partitions of a two-consumer
# persistent build write SM clock stamps (%clock, 32 bits) past the LSE rows, at LSE + BH * SEQ_Q + the program's
# region (TRACE_ROLES x TRACE_TILES records of TRACE_SLOTS words; roles: consumer 0, consumer 1, producer). The
# record layouts are trace_timeline.py's. Off (the default), no stamp is compiled in.
TRACE_TILES = gl.constexpr(64)
TRACE_SLOTS = gl.constexpr(64)
TRACE_ROLES = gl.constexpr(3)
TRACE_BLOCKS = gl.constexpr(13)  # per-block stamps of a tile's first TRACE_BLOCKS - 1 blocks (the rest share the last)
TRACE_BLOCK0 = gl.constexpr(5)  # a record's first block word (0-4: the tile's own stamps and block count)
TRACE_SKIP_WORD = gl.constexpr(61)  # consumers: the tile's skipped blocks released (SKIP builds)
TRACE_P_BLOCKS = gl.constexpr(19)  # the producer's per-block stamps (3 words each) of a tile's first blocks


@gluon.jit
def _block_record(tr, t):
    """TRACE: the 4 words of a consumer's key block t in its tile record tr (blocks past TRACE_BLOCKS - 2 share the
    last); block TRACE_BLOCKS's place holds the tile's last PV GEMM."""
    return tr + TRACE_BLOCK0 + 4 * gl.minimum(t, TRACE_BLOCKS - 1)


@gluon.jit
def _trace_record(LSE, BH, SEQ_Q, role, i):
    """TRACE: the address of this program's record of tile i (clamped to TRACE_TILES - 1) for role (0, 1: consumers,
    2: the producer)."""
    cta = gl.program_id(0).to(gl.int64) * (TRACE_ROLES * TRACE_TILES * TRACE_SLOTS)
    return LSE + BH.to(gl.int64) * SEQ_Q + cta + (role * TRACE_TILES + gl.minimum(i, TRACE_TILES - 1)) * TRACE_SLOTS


@gluon.jit
def _stamp(ptr, slot, value=None):
    """TRACE: one thread of the partition writes the SM clock (or `value`, an int32) to word `slot` of ptr's record,
    as float32 bits (the host reads the words as int32)."""
    nw: gl.constexpr = gl.num_warps()
    lay: gl.constexpr = gl.BlockedLayout([1], [32], [nw], [0])
    idx = gl.arange(0, 32 * nw, layout=lay)
    if value is None:
        t = gl.inline_asm_elementwise("mov.u32 $0, %clock;", "=r,r", [idx], dtype=gl.int32, is_pure=False, pack=1)
    else:
        t = gl.full([32 * nw], 0, gl.int32, lay) + value
    gl.store(ptr + slot + idx, t.to(gl.float32, bitcast=True), mask=idx == 0)


@gluon.jit
def _take_turn(TURN_ME: gl.constexpr, PINGPONG: gl.constexpr):
    """Wait until the warpgroup before this one in the rotation has issued its GEMMs (the last warpgroup
    arrives once at its start, so warpgroup 0 goes first)."""
    _turn_op(TURN_ME, False, PINGPONG)


@gluon.jit
def _pass_turn(TURN_OTHER: gl.constexpr, PINGPONG: gl.constexpr):
    _turn_op(TURN_OTHER, True, PINGPONG)


@gluon.jit
def _turn_op(TURN_ID: gl.constexpr, PASS: gl.constexpr, PINGPONG: gl.constexpr):
    """bar.sync (take) or, PASS, bar.arrive on named barrier TURN_ID, when the consumers take turns."""
    if PINGPONG:
        if TURN_ID == 13:
            _named_barrier(_BAR_ARRIVE_13 if PASS else _BAR_SYNC_13)
        elif TURN_ID == 14:
            _named_barrier(_BAR_ARRIVE_14 if PASS else _BAR_SYNC_14)
        else:
            _named_barrier(_BAR_ARRIVE_15 if PASS else _BAR_SYNC_15)


@gluon.jit
def _maybe_turn(TURN_ID: gl.constexpr, PASS: gl.constexpr, PINGPONG: gl.constexpr, take, SKIP: gl.constexpr):
    """_take_turn(TURN_ID) or (PASS) _pass_turn(TURN_ID); with SKIP only where `take` (a public flag: this
    turn's index in the tile is one every consumer has; see _consume_tile)."""
    if SKIP:
        if take:
            _turn_op(TURN_ID, PASS, PINGPONG)
    else:
        _turn_op(TURN_ID, PASS, PINGPONG)


# P between a softmax and its PV GEMM (issued in the next step) is carried as 16-bit pairs in 32-bit words. Carried
# as a tensor of 16-bit values, ptxas packed each pair into the GEMM's operand register in the wrong order and fixed
# it with one PRMT per register at every step, inside the GEMM-issue turn (32 per 64x128 block). Session 25 (graph
# replay / 25 ms batches, interleaved rounds, bitwise equal outputs): D=128 16K x1.008-1.015, causal x1.007-1.017;
# D=256 16K x1.030, 4K x1.017-1.028; D=64 causal 16K x1.04-1.06; D=128 causal 1K x1.04; D=64 non-causal x0.99-1.00;
# but the deferred-store build (D=128 S <= 512) x0.983-0.987, so that one keeps the 16-bit form (_consume_tile).
# P_PACKED off: no build packs (the A/B switch of scripts/p_packed_ab.py).
P_PACKED = gl.constexpr(True)
# The three-consumer builds' row sums on the tensor cores (non-causal): l += P @ ones, a [BLOCK_N, L_COLS] tile of
# ones, issued beside each PV GEMM, instead of 64 FADDs and a 4-lane shuffle reduction per row pair and block on the
# FP32 pipes (at D=64 the consumer step is short of issue slots: 419 -> 368 instructions a step). l then sums the
# 16-bit P that the PV GEMM multiplies (the weights of O sum to one). Session 25 device call 7 (interleaved rounds,
# float64 checks): D=64 16K x1.093 / x1.101, 8K x1.093 / x1.092; causal 16K x0.996 / x0.996 (the causal build spilled
# 72 bytes with it), so causal builds keep the FP32 sums. L_MMA off: no build uses it (scripts/p_packed_ab.py's A/B).
L_MMA = gl.constexpr(True)
L_COLS = gl.constexpr(8)  # the ones' columns: the smallest wgmma N


@gluon.jit
def _p_carry(p, dtype: gl.constexpr, o_layout: gl.constexpr, PACK_P: gl.constexpr):
    """Softmax output p (fp32, the S accumulator's layout) rounded to dtype (round to nearest even, as .to()), in the
    form carried to the next step's PV GEMM: 16-bit pairs (columns 2i, 2i + 1) in int32 words when PACK_P and
    P_PACKED, else the GEMM's operand itself."""
    if PACK_P and P_PACKED:
        BM: gl.constexpr = p.shape[0]
        BN: gl.constexpr = p.shape[1]
        lo, hi = gl.split(gl.reshape(p, [BM, BN // 2, 2]))
        CVT: gl.constexpr = "cvt.rn.bf16x2.f32 $0, $2, $1;" if dtype == gl.bfloat16 else "cvt.rn.f16x2.f32 $0, $2, $1;"
        return gl.inline_asm_elementwise(CVT, "=r,r,r", [lo, hi], dtype=gl.int32, is_pure=True, pack=1)
    else:
        return gl.convert_layout(p.to(dtype), gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2))


@gluon.jit
def _p_operand(p_carried, dtype: gl.constexpr, o_layout: gl.constexpr, PACK_P: gl.constexpr):
    """The PV GEMM's A operand from _p_carry's form."""
    if PACK_P and P_PACKED:
        BM: gl.constexpr = p_carried.shape[0]
        BN2: gl.constexpr = p_carried.shape[1]
        lo, hi = gl.inline_asm_elementwise("mov.b32 {$0, $1}, $2;", "=h,=h,r", [p_carried],
                                           dtype=(gl.int16, gl.int16), is_pure=True, pack=1)
        p = gl.reshape(gl.join(lo, hi), [BM, 2 * BN2]).to(dtype, bitcast=True)
        return gl.convert_layout(p, gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2))
    else:
        return p_carried


@gluon.jit
def _ov_step(q_tile, k_ring, v_ring, ready_k, ready_v, empty_k, empty_v, TURN_ME: gl.constexpr,
             TURN_OTHER: gl.constexpr, j, c, p_prev, m_i, l_i, acc, offs_m, offs_n0, qk_scale,
             SEQ_K, CAUSAL_OFFSET, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
             STAGES: gl.constexpr, MASKED: gl.constexpr, CAUSAL: gl.constexpr, s_layout: gl.constexpr,
             o_layout: gl.constexpr, PINGPONG: gl.constexpr, take, SKIP: gl.constexpr, SLOT0: gl.constexpr = 0,
             PV_OVERLAP: gl.constexpr = False, PACK_P: gl.constexpr = True, ones=None, LM: gl.constexpr = False,
             win=None, cap_in=None, tr=None, ROW_BOUND: gl.constexpr = False):
    """Key block j (j >= 1) at ring position c (slot SLOT0 + c % STAGES: a consumer's sub-ring under split
    keys); the previous block this consumer computed is at c - 1. With the tensor cores busy during the
    softmax:
    S_j = Q K_j^T and O += P_{j-1} V_{j-1} are issued together; the softmax of S_j runs while the PV GEMM
    is in flight. Every GEMM is waited on before the step returns, so no accumulator is in flight across a
    loop edge (ptxas serialises every WGMMA of a kernel where one is: advisory C7514).
    PV_OVERLAP: the wait for the PV GEMM sits behind a block boundary (a branch on a public condition that is
    never taken), so that the softmax's exponentials run while that GEMM is in flight. Without it ptxas moves
    the wait up before them (it converts P into the registers the GEMM in flight reads; session 9), and the
    softmax overlaps only other consumers' GEMMs. With two or three consumers it lost (session 9 run 3); with
    one consumer per SM nothing else fills the tensor cores during a softmax (session 13)."""
    dtype: gl.constexpr = q_tile.dtype
    s_idx = SLOT0 + c % STAGES
    prev = SLOT0 + (c + STAGES - 1) % STAGES
    if tr is not None:  # TRACE: tr is this block's 4 words
        _stamp(tr, 0)
    mbarrier.wait(ready_k.index(s_idx), (c // STAGES) & 1)
    mbarrier.wait(ready_v.index(prev), ((c - 1) // STAGES) & 1)
    if tr is not None:
        _stamp(tr, 1)
    _maybe_turn(TURN_ME, False, PINGPONG, take, SKIP)
    if tr is not None:
        _stamp(tr, 2)
    s_tok = warpgroup_mma(q_tile, k_ring.index(s_idx).reshape([BLOCK_N, HEAD_DIM]).permute((1, 0)),
                          gl.zeros([BLOCK_M, BLOCK_N], gl.float32, s_layout), use_acc=False, is_async=True)
    p_a = _p_operand(p_prev, dtype, o_layout, PACK_P)
    acc = warpgroup_mma(p_a, v_ring.index(prev).reshape([BLOCK_N, HEAD_DIM]), acc, is_async=True)
    if LM:  # l (here [BLOCK_M, L_COLS], every column the row sum) += P_{j-1} @ ones
        l_i = warpgroup_mma(p_a, ones, l_i, is_async=True)
    _maybe_turn(TURN_OTHER, True, PINGPONG, take, SKIP)
    s_acc = warpgroup_mma_wait(num_outstanding=2 if LM else 1, deps=(s_tok,))
    if tr is not None:
        _stamp(tr, 3)
    mbarrier.arrive(empty_k.index(s_idx), count=1)  # block j's K is read
    p, alpha, m_new, l_i = _softmax_block(s_acc, m_i, l_i, offs_m, offs_n0, j, qk_scale, SEQ_K, CAUSAL_OFFSET,
                                          BLOCK_N, MASKED, CAUSAL, not LM, win, cap_in, ROW_BOUND)
    if PV_OVERLAP:
        if SEQ_K < 0:  # never (a length): a block boundary ptxas does not move the wait over
            mbarrier.arrive(empty_v.index(prev), count=1)
        if LM:
            acc, l_i = warpgroup_mma_wait(num_outstanding=0, deps=(acc, l_i))
        else:
            acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        p_op = _p_carry(p, dtype, o_layout, PACK_P)
    else:
        p_op = _p_carry(p, dtype, o_layout, PACK_P)
        if LM:
            acc, l_i = warpgroup_mma_wait(num_outstanding=0, deps=(acc, l_i))
        else:
            acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
    mbarrier.arrive(empty_v.index(prev), count=1)  # block j-1's V is read
    acc = acc * gl.convert_layout(alpha, gl.SliceLayout(1, o_layout))[:, None]
    if LM:
        l_i = l_i * gl.convert_layout(alpha, gl.SliceLayout(1, l_i.type.layout))[:, None]
    return p_op, m_new, l_i, acc


@gluon.jit
def _visit_blocks(q_tile, k_ring, v_ring, ready_k, ready_v, empty_k, empty_v, q_empty, TURN_ME: gl.constexpr,
                  TURN_OTHER: gl.constexpr, c, J0: gl.constexpr, n_full, n_own, n_first, m_i, l_i, acc, offs_m,
                  offs_n0, qk_scale, SEQ_K, CAUSAL_OFFSET, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr,
                  HEAD_DIM: gl.constexpr, CAUSAL: gl.constexpr, STAGES: gl.constexpr, s_layout: gl.constexpr,
                  o_layout: gl.constexpr, PINGPONG: gl.constexpr, SKIP: gl.constexpr, STRIDE: gl.constexpr,
                  RELEASE_Q: gl.constexpr, SLOT0: gl.constexpr = 0, J_BASE=0, PV_OVERLAP: gl.constexpr = False,
                  PACK_P: gl.constexpr = True, ones=None, l_layout: gl.constexpr = None, n_left=None, win=None,
                  cap_in=None, tr=None, ROW_BOUND: gl.constexpr = False, V_STAGE: gl.constexpr = False, stage_v=None,
                  FULL_FIRST: gl.constexpr = False):
    """This consumer's n_own >= 1 key blocks J0, J0 + STRIDE, ... of a tile, the first n_full of them seen in
    full by every row, at ring positions c, c + 1, ... of the slots from SLOT0 (this consumer reads every
    slot it waits on: each slot's barrier phases then come to it in order). FlashAttention-3's intra-warpgroup
    overlap: the first block is peeled and masked, each later step issues S_j and the previous PV together,
    the last PV runs alone. Turns as _consume_tile says (take: the turn index is one every consumer has).
    RELEASE_Q: Q is released (q_empty) once every QK^T has completed. J_BASE (public, runtime): added to
    every block index (split KV: the program's first key block). PV_OVERLAP: _ov_step's. PACK_P: P carried as
    16-bit pairs in int32 words (_p_carry). n_left (a local window; n_left <= n_full): blocks 1 .. n_left - 1 are
    masked too (the window's left edge), before the blocks seen in full; win, cap_in, ROW_BOUND: _softmax_block's; tr:
    the timeline build's record (TRACE). FULL_FIRST (no window): the peeled block runs unmasked where every row sees
    it in full (n_full >= 1: public block counts), masked otherwise. Returns (m_i, l_i, acc)."""
    dtype: gl.constexpr = q_tile.dtype
    s0 = SLOT0 + c % STAGES
    if tr is not None:  # TRACE: tr is the tile's record (_block_record: block t's words)
        tr_0 = _block_record(tr, 0)
        tr_pv = tr + TRACE_BLOCK0 + 4 * TRACE_BLOCKS  # the last PV GEMM's
        _stamp(tr_0, 0)
    mbarrier.wait(ready_k.index(s0), (c // STAGES) & 1)
    if tr is not None:
        _stamp(tr_0, 1)
    _take_turn(TURN_ME, PINGPONG)
    if tr is not None:
        _stamp(tr_0, 2)
    s_tok = warpgroup_mma(q_tile, k_ring.index(s0).reshape([BLOCK_N, HEAD_DIM]).permute((1, 0)),
                          gl.zeros([BLOCK_M, BLOCK_N], gl.float32, s_layout), use_acc=False, is_async=True)
    _pass_turn(TURN_OTHER, PINGPONG)
    s_acc = warpgroup_mma_wait(num_outstanding=0, deps=(s_tok,))
    if tr is not None:
        _stamp(tr_0, 3)
    mbarrier.arrive(empty_k.index(s0), count=1)
    LM: gl.constexpr = l_layout is not None  # the row sums on the tensor cores (L_MMA): P @ ones beside each PV
    if FULL_FIRST:  # a branch on public block counts: the same path for every input of a shape
        gl.static_assert(n_left is None and win is None, "FULL_FIRST: no window")
        if n_full > 0:
            p, alpha, m_i, l_i = _softmax_block(s_acc, m_i, l_i, offs_m, offs_n0, J0 + J_BASE, qk_scale, SEQ_K,
                                                CAUSAL_OFFSET, BLOCK_N, False, CAUSAL, not LM, win, cap_in, ROW_BOUND)
        else:
            p, alpha, m_i, l_i = _softmax_block(s_acc, m_i, l_i, offs_m, offs_n0, J0 + J_BASE, qk_scale, SEQ_K,
                                                CAUSAL_OFFSET, BLOCK_N, True, CAUSAL, not LM, win, cap_in, ROW_BOUND)
    else:
        p, alpha, m_i, l_i = _softmax_block(s_acc, m_i, l_i, offs_m, offs_n0, J0 + J_BASE, qk_scale, SEQ_K,
                                            CAUSAL_OFFSET, BLOCK_N, True, CAUSAL, not LM, win, cap_in, ROW_BOUND)
    if LM:
        l_i = gl.zeros([BLOCK_M, L_COLS], gl.float32, l_layout)
    p_op = _p_carry(p, dtype, o_layout, PACK_P)
    t0 = 1
    if n_left is not None:
        for t in range(1, n_left):  # the window's left edge: masked
            j = J0 + J_BASE + STRIDE * t
            p_op, m_i, l_i, acc = _ov_step(q_tile, k_ring, v_ring, ready_k, ready_v, empty_k, empty_v, TURN_ME,
                                           TURN_OTHER, j, c + t, p_op, m_i, l_i,
                                           acc, offs_m, offs_n0, qk_scale, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N,
                                           HEAD_DIM, STAGES, True, CAUSAL, s_layout, o_layout, PINGPONG,
                                           t <= n_first, SKIP, SLOT0, PV_OVERLAP, PACK_P, ones, LM, win, cap_in,
                                           None if tr is None else _block_record(tr, t), ROW_BOUND)
        t0 = gl.maximum(n_left, 1)
    for t in range(t0, n_full):  # blocks every row sees in full: no mask
        j = J0 + J_BASE + STRIDE * t
        p_op, m_i, l_i, acc = _ov_step(q_tile, k_ring, v_ring, ready_k, ready_v, empty_k, empty_v, TURN_ME,
                                       TURN_OTHER, j, c + t, p_op, m_i, l_i,
                                       acc, offs_m, offs_n0, qk_scale, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N,
                                       HEAD_DIM, STAGES, False, CAUSAL, s_layout, o_layout, PINGPONG,
                                       t <= n_first, SKIP, SLOT0, PV_OVERLAP, PACK_P, ones, LM, win, cap_in,
                                       None if tr is None else _block_record(tr, t), ROW_BOUND)
    for t in range(gl.maximum(n_full, 1), n_own):  # diagonal / ragged-tail blocks
        j = J0 + J_BASE + STRIDE * t
        p_op, m_i, l_i, acc = _ov_step(q_tile, k_ring, v_ring, ready_k, ready_v, empty_k, empty_v, TURN_ME,
                                       TURN_OTHER, j, c + t, p_op, m_i, l_i,
                                       acc, offs_m, offs_n0, qk_scale, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N,
                                       HEAD_DIM, STAGES, True, CAUSAL, s_layout, o_layout, PINGPONG,
                                       t <= n_first, SKIP, SLOT0, PV_OVERLAP, PACK_P, ones, LM, win, cap_in,
                                       None if tr is None else _block_record(tr, t), ROW_BOUND)
    if RELEASE_Q:  # every QK^T of the tile has completed: the producer may load the next Q
        mbarrier.arrive(q_empty, count=1)
    elif V_STAGE:  # ... where O goes to the last block's V slot (stage_v: public block counts; _consume_tile)
        mbarrier.arrive(q_empty, count=1, pred=stage_v)
    cl = c + n_own - 1  # the last own block's ring position
    last = SLOT0 + cl % STAGES
    if tr is not None:
        _stamp(tr_pv, 0)
    mbarrier.wait(ready_v.index(last), (cl // STAGES) & 1)
    if tr is not None:
        _stamp(tr_pv, 1)
    _maybe_turn(TURN_ME, False, PINGPONG, n_own <= n_first, SKIP)
    if tr is not None:
        _stamp(tr_pv, 2)
    p_a = _p_operand(p_op, dtype, o_layout, PACK_P)
    acc = warpgroup_mma(p_a, v_ring.index(last).reshape([BLOCK_N, HEAD_DIM]), acc, is_async=True)
    if LM:
        l_i = warpgroup_mma(p_a, ones, l_i, is_async=True)
    _maybe_turn(TURN_OTHER, True, PINGPONG, n_own <= n_first, SKIP)
    if LM:
        acc, l_i = warpgroup_mma_wait(num_outstanding=0, deps=(acc, l_i))
        l_i = gl.convert_layout(gl.max(l_i, 1), gl.SliceLayout(1, s_layout))
    else:
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
    if tr is not None:
        _stamp(tr_pv, 3)
    if V_STAGE:  # stage_v: the slot is released once O's store from it has read it (_consume_tile)
        mbarrier.arrive(empty_v.index(last), count=1, pred=stage_v == 0)
    else:
        mbarrier.arrive(empty_v.index(last), count=1)
    return m_i, l_i, acc


@gluon.jit
def _consume_tile(o_desc, LSE, q_smem, o_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v,
                  TURN_ME: gl.constexpr, TURN_OTHER: gl.constexpr, i, c, b, h,
                  bh, m0, n_eff, qk_scale, SEQ_Q, SEQ_K, CAUSAL_OFFSET, BLOCK_M: gl.constexpr,
                  BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr, CAUSAL: gl.constexpr, STAGES: gl.constexpr,
                  num_warps: gl.constexpr, PINGPONG: gl.constexpr, O_SMEM: gl.constexpr, n_own, n_first,
                  SKIP: gl.constexpr, DEFER_STORE: gl.constexpr = False, PV_OVERLAP: gl.constexpr = False,
                  PACK: gl.constexpr = 0, pk=None, ROW0: gl.constexpr = 0, TILE_M: gl.constexpr = 0, ones=None,
                  LM: gl.constexpr = False, VARLEN: gl.constexpr = False, vl=None, wb=None, win=None, cap_in=None,
                  tr=None, o_ptrs=None, O_WIDE: gl.constexpr = True, V_STAGE: gl.constexpr = False):
    """FlashAttention-3's intra-warpgroup overlap (one PV GEMM in flight during each softmax) for BLOCK_M
    rows from m0 over the tile's n_eff >= 1 blocks from ring position c, of which these rows compute n_own
    (n_eff without SKIP); i-th tile of this program. Block 0 is peeled and masked, so a tile with no
    visible key gives O = 0, LSE = -inf.
    SKIP (causal; on where skips_masked says; docs/perf-log.md, sessions 6-7): these rows compute only
    their own n_own blocks; the tile's further blocks (fully masked for them) are released once loaded,
    unread. Turns are taken at the turn indices 0..n_first that every consumer has (n_first: the first
    consumer's n_own, the smallest), so the rotation stays matched; the last consumer's final steps run
    alone. PACK (session 18; m0 = 0): these are rows ROW0 .. ROW0 + BLOCK_M - 1 of a TILE_M-row packed tile of the
    block of query heads pk (_pack_block), in slots of PACK rows (_pack_rows); the causal mask uses each row's query
    position. LM (L_MMA): the row sums are P @ ones (ones: a [BLOCK_N, L_COLS] shared tile), beside each PV GEMM. P
    is carried in packed words (_p_carry) except in the DEFER_STORE build. VARLEN, vl: the epilogue's (_epilogue).
    wb (a local window, with win): (the tile's first key block, n_left, n_full) (_window_counts): the blocks visited
    are those from the first, of which 0 .. n_left - 1 and n_full .. are masked; win, cap_in: _softmax_block's. o_ptrs
    (O_REG): O is stored from registers (_epilogue), so Q is released after the last QK^T, as with O_SMEM. V_STAGE
    (the second of two consumers with SKIP, O staged in Q's tile; session 39): on a tile where these rows compute more
    blocks than the first consumer's (n_own > n_first: public counts), the last of them is this consumer's alone, so O
    is staged in that block's V slot instead, Q is released after the last QK^T, and the V slot once O's store has read
    it; other tiles stage O in Q's tile as before."""
    s_layout: gl.constexpr = _acc_layout(num_warps, BLOCK_N)
    O_REG: gl.constexpr = o_ptrs is not None
    o_layout: gl.constexpr = _acc_layout(num_warps, HEAD_DIM)
    if wb is None:
        n_full = _full_end(m0, SEQ_K, CAUSAL_OFFSET, CAUSAL) // BLOCK_N  # blocks these rows see in full
        if CAUSAL:
            n_full = gl.minimum(n_full, n_own)
        j_base = 0
        n_left = None
    else:
        j_base = wb[0]
        n_left = wb[1]
        n_full = wb[2]
    m_i, l_i, acc, offs_m, offs_n0 = _row_state(m0, BLOCK_M, BLOCK_N, HEAD_DIM, s_layout, o_layout)
    if PACK:
        offs_m = _pack_rows(offs_m + ROW0, SEQ_Q, pk, PACK, TILE_M // PACK)[1]
    # The peeled first block unmasked where every row sees it in full (_visit_blocks FULL_FIRST): non-causal dense
    # tiles of 128-key blocks. Session 41 (H100, graph replay to 2K, 15 rounds, against the same builds without it):
    # D=128 512 x1.056 / x1.067 (n128s2_qd_ds), 1K x1.033 / x1.036, 2K x1.042 / x1.041, 4K x1.020 (n128s2_qd), 16K
    # x1.030 / x1.020 (n128s2); D=64 2K x1.027 / x1.028 (three consumers). Causal tiles read x0.98-1.03 (neutral) and
    # 64-key blocks x0.97-1.01: the masked block's extra work is smaller there than what the second copy costs.
    # Not in the Hopper varlen builds: their non-causal D=96 / 128 builds with it read the same (call 8, varlen_bench
    # grid at D=128: mixed 365-366 TFLOPS either way, short 219-223, uniform 1K 332-334).
    FULL_FIRST: gl.constexpr = not CAUSAL and BLOCK_N >= 128 and not VARLEN and not PACK
    if V_STAGE:  # this tile's last own block is this consumer's alone: O goes to its V slot
        stage_v = n_own > n_first
    else:
        stage_v = None
    q_tile = q_smem.reshape([BLOCK_M, HEAD_DIM])
    if tr is not None:  # TRACE: the tile's record (trace_timeline.py)
        _stamp(tr, 0)
        _stamp(tr, 4, n_own)
    mbarrier.wait(q_bar, i & 1)
    if tr is not None:
        _stamp(tr, 1)
    m_i, l_i, acc = _visit_blocks(q_tile, k_ring, v_ring, ready_k, ready_v, empty_k,
                                  empty_v, q_empty, TURN_ME, TURN_OTHER, c, 0, n_full, n_own, n_first, m_i, l_i, acc,
                                  offs_m, offs_n0, qk_scale, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL,
                                  STAGES, s_layout, o_layout, PINGPONG, SKIP, 1, O_SMEM or O_REG, 0, j_base,
                                  PV_OVERLAP, not DEFER_STORE, ones, _l_layout(num_warps, LM), n_left, win, cap_in, tr,
                                  CAUSAL and not PACK, V_STAGE, stage_v, FULL_FIRST)
    if tr is not None:
        _stamp(tr, 2)
    if SKIP:  # the tile's blocks past these rows' own: released once loaded (never before: a slot's
        for j in range(n_own, n_eff):  # barrier must not count this consumer twice in one phase), unread
            s = (c + j) % STAGES
            phase = ((c + j) // STAGES) & 1
            mbarrier.wait(ready_k.index(s), phase)
            mbarrier.arrive(empty_k.index(s), count=1)
            mbarrier.wait(ready_v.index(s), phase)
            mbarrier.arrive(empty_v.index(s), count=1)
    if tr is not None:  # the skipped blocks released
        _stamp(tr, TRACE_SKIP_WORD)
    if V_STAGE:
        if stage_v:  # O in the V slot of this consumer's last block (its alone), then the slot released
            cl = c + n_own - 1
            _epilogue(o_desc, LSE, acc, m_i, l_i, offs_m, b, h, bh, m0, SEQ_Q, v_ring.index(cl % STAGES), BLOCK_M,
                      HEAD_DIM, o_layout)
            mbarrier.arrive(empty_v.index(cl % STAGES), count=1)
        else:  # O in Q's tile, then Q released
            _epilogue(o_desc, LSE, acc, m_i, l_i, offs_m, b, h, bh, m0, SEQ_Q, o_smem, BLOCK_M, HEAD_DIM, o_layout)
            mbarrier.arrive(q_empty, count=1)
    else:
        _epilogue(o_desc, LSE, acc, m_i, l_i, offs_m, b, h, bh, m0, SEQ_Q, o_smem, BLOCK_M, HEAD_DIM, o_layout,
                  DEFER_STORE, PACK, pk, ROW0, TILE_M, VARLEN, vl, o_ptrs, O_WIDE)
    if tr is not None:
        _stamp(tr, 3)
    if not O_SMEM and not O_REG and not V_STAGE:  # O was staged in Q's tile and its TMA store has read it
        mbarrier.arrive(q_empty, count=1)


@gluon.jit
def _merge_weights(m_a, l_a, m_b, l_b):
    """(m, l, w_a, w_b) of two online-softmax states over disjoint key blocks, a's first: O = O_a w_a + O_b w_b.
    Rows with no visible key in either keep m = -inf, l = 0 (and weights 0)."""
    m_new = gl.maximum(m_a, m_b)
    m_sub = gl.where(m_new == float("-inf"), 0.0, m_new)
    w_a = gl.exp2(m_a - m_sub)
    w_b = gl.exp2(m_b - m_sub)
    return m_new, l_a * w_a + l_b * w_b, w_a, w_b


@gluon.jit
def _merge_states(m_a, l_a, acc_a, m_b, l_b, acc_b, row_o: gl.constexpr):
    """(m, l, O) of two online-softmax states over disjoint key blocks, a's first (a fixed order: the same bits
    whichever state was computed where). Rows with no visible key in either keep m = -inf, l = 0, O = 0."""
    m_new, l_new, w_a, w_b = _merge_weights(m_a, l_a, m_b, l_b)
    acc = acc_a * gl.convert_layout(w_a, row_o)[:, None] + acc_b * gl.convert_layout(w_b, row_o)[:, None]
    return m_new, l_new, acc


@gluon.jit
def _consume_tile_split_k(o_desc, LSE, q_smem, o_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k,
                          empty_v, merge, W: gl.constexpr, i, c, b, h, bh, m0, n_own, qk_scale, SEQ_Q, SEQ_K,
                          CAUSAL_OFFSET, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
                          CAUSAL: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr, O_SMEM: gl.constexpr,
                          PV_OVERLAP: gl.constexpr = False):
    """SPLIT_K: consumers 0 and 1 share the BLOCK_M rows from m0 and take alternate blocks of the tile
    (consumer W: its n_own blocks W, W + 2, ..., from its own sub-ring, slots W * STAGES .., at its position
    c; consumer 0 has >= 1, consumer 1 may have none), so each runs half of the serial chain. Consumer 1
    hands its state (O, m, l) to consumer 0 through shared memory (merge: acc_smem, ml_smem) on two
    hardware named barriers, which compute-sanitizer's racecheck
    models (on mbarriers it reported the hand-over as a race: session 8 run 4): 13 = written (consumer 1
    arrives, consumer 0 syncs), 14 = read (consumer 0 arrives, consumer 1 syncs before its next hand-over,
    and once after its last: _ws_consumer). Every count and position is public (tile indices, shapes)."""
    acc_smem, ml_smem = merge
    s_layout: gl.constexpr = _acc_layout(num_warps, BLOCK_N)
    o_layout: gl.constexpr = _acc_layout(num_warps, HEAD_DIM)
    row_s: gl.constexpr = gl.SliceLayout(1, s_layout)
    row_o: gl.constexpr = gl.SliceLayout(1, o_layout)
    t_full = (_full_end(m0, SEQ_K, CAUSAL_OFFSET, CAUSAL) // BLOCK_N - W + 1) // 2  # own blocks seen in full
    if CAUSAL:
        t_full = gl.minimum(t_full, n_own)
    m_i, l_i, acc, offs_m, offs_n0 = _row_state(m0, BLOCK_M, BLOCK_N, HEAD_DIM, s_layout, o_layout)
    mbarrier.wait(q_bar, i & 1)
    if n_own > 0:  # no turns (the pair takes none); Q is released after the hand-over
        m_i, l_i, acc = _visit_blocks(q_smem.reshape([BLOCK_M, HEAD_DIM]), k_ring, v_ring, ready_k, ready_v, empty_k,
                                      empty_v, q_empty, 13, 14, c, W, t_full, n_own, n_own, m_i, l_i, acc, offs_m,
                                      offs_n0, qk_scale, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL,
                                      STAGES, s_layout, o_layout, False, False, 2, False, W * STAGES, 0,
                                      PV_OVERLAP)
    if W == 1:  # hand O, m, l over; Q is no longer read
        if i > 0:  # consumer 0 has read the previous hand-over
            _named_barrier(_BAR_SYNC_14)
        acc_smem.store(acc)
        ml_smem.index(0).store(m_i)
        ml_smem.index(1).store(l_i)
        _named_barrier(_BAR_ARRIVE_13)
        mbarrier.arrive(q_empty, count=1)
    else:
        _named_barrier(_BAR_SYNC_13)
        acc1 = acc_smem.load(o_layout)
        m1 = ml_smem.index(0).load(row_s)
        l1 = ml_smem.index(1).load(row_s)
        _named_barrier(_BAR_ARRIVE_14)
        m_new, l_i, acc = _merge_states(m_i, l_i, acc, m1, l1, acc1, row_o)
        if O_SMEM:
            mbarrier.arrive(q_empty, count=1)
        _epilogue(o_desc, LSE, acc, m_new, l_i, offs_m, b, h, bh, m0, SEQ_Q, o_smem, BLOCK_M, HEAD_DIM, o_layout)
        if not O_SMEM:
            mbarrier.arrive(q_empty, count=1)


# SPLIT_KV: thread 0 of the consumer warpgroup (threads 0-127 of the CTA) swaps the call's nonce into the tile's
# flag (release: after the thread barrier, every thread's state stores come first; acquire: the other slot's
# stores come before the loads that follow); bar.red.or on named barrier 12 (unused elsewhere: Triton 3.6 takes
# 0-3, the turns 13-15) hands its finding to all 128 threads in registers. Triton's own scalar atomic would hand
# it over through shared memory that also stages secret data, which the auditor cannot tell apart.
_ARRIVE_ASM = gl.constexpr(
    "{\n.reg .pred t0, got, last;\n.reg .b64 old;\n.reg .u32 tid;\nmov.u32 tid, %tid.x;\n"
    "setp.eq.u32 t0, tid, 0;\nmov.b64 old, 0;\n"
    "@t0 atom.acq_rel.gpu.global.exch.b64 old, [$1], $2;\n"
    "setp.eq.and.b64 got, old, $2, t0;\n"
    "bar.red.or.pred last, 12, 128, got;\nselp.u32 $0, 1, 0, last;\n}")


@gluon.jit
def _arrive_second(flag, nonce):
    """Swap `nonce` into *flag (one thread, acq_rel, GPU scope); 1 where it was already there (the other program
    of the tile arrived first), else 0; the same in every thread of the warpgroup. Public."""
    gl.static_assert(gl.num_warps() == 4, "one consumer warpgroup")
    one: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    addr = gl.full([1], 0, gl.int64, one) + flag.to(gl.int64, bitcast=True)
    key = gl.full([1], 0, gl.int64, one) + nonce
    got = gl.inline_asm_elementwise(_ARRIVE_ASM, "=r,l,l", [addr, key], dtype=gl.int32, is_pure=False, pack=1)
    return gl.max(got, 0)


@gluon.jit
def _arrive_meeting(flag, nonce):
    """A thread barrier (every thread's state stores come before the release in _arrive_second), then
    _arrive_second at `flag`; where this program arrived second it writes the flag back to 0. Returns go (public)."""
    gl.thread_barrier()
    go = _arrive_second(flag, nonce) != 0
    if go:
        gl.store(flag, 0)
    return go


@gluon.jit
def _store_state(mine, acc, m_i, l_i, o_offs, rows_s, valid, BLOCK_M: gl.constexpr, HEAD_DIM: gl.constexpr,
                 row_o: gl.constexpr, ROWS_MASKED: gl.constexpr, PACK: gl.constexpr = 0, pk=None):
    """This program's state (O unnormalised, m, l; fp32) into workspace slot `mine`; ROWS_MASKED: only the tile's
    first `valid` rows (public). Returns the row masks (None, None unmasked)."""
    if ROWS_MASKED:
        if PACK:  # packed tiles: the rows of the block's heads' positions below `valid` (SEQ_Q)
            ok_s = _pack_rows(rows_s, valid, pk, PACK, BLOCK_M // PACK)[2]
        else:
            ok_s = rows_s < valid
        ok_o = gl.expand_dims(gl.convert_layout(ok_s, row_o), 1) & (o_offs >= 0)
        gl.store(mine + o_offs, acc, mask=ok_o)
        gl.store(mine + BLOCK_M * HEAD_DIM + rows_s, m_i, mask=ok_s)
        gl.store(mine + BLOCK_M * (HEAD_DIM + 1) + rows_s, l_i, mask=ok_s)
    else:
        ok_s = None
        ok_o = None
        gl.store(mine + o_offs, acc)
        gl.store(mine + BLOCK_M * HEAD_DIM + rows_s, m_i)
        gl.store(mine + BLOCK_M * (HEAD_DIM + 1) + rows_s, l_i)
    return ok_s, ok_o


@gluon.jit
def _hand_over(m_i, l_i, acc, mine, other, flag, nonce, FIRST, o_offs, rows_s, BLOCK_M: gl.constexpr,
               HEAD_DIM: gl.constexpr, row_o: gl.constexpr, valid=None, ROWS_MASKED: gl.constexpr = False,
               PACK: gl.constexpr = 0, pk=None):
    """One SPLIT_KV meeting of two programs: this one's state (O unnormalised, m, l; fp32) into its workspace slot
    `mine`, then the call's nonce swapped into `flag` (_arrive_second). (go, m, l, O): go where this program
    arrived second; then it has written the flag back to 0 and merged the other slot's state with its own, the
    slot of FIRST (this one's when FIRST, a public flag) first, so the bits are the same whichever arrives
    second. Otherwise its own state, unused. ROWS_MASKED: only the tile's first `valid` rows (those below SEQ_Q, a
    public count) are stored and loaded; the others' merged state is never stored (rows past SEQ_Q)."""
    ok_s, ok_o = _store_state(mine, acc, m_i, l_i, o_offs, rows_s, valid, BLOCK_M, HEAD_DIM, row_o, ROWS_MASKED, PACK,
                              pk)
    go = _arrive_meeting(flag, nonce)
    m_new = m_i
    l_new = l_i
    if go:  # the other state is written: combine (public: timing, not data)
        if ROWS_MASKED:
            acc_o = gl.load(other + o_offs, mask=ok_o, other=0.0, cache_modifier=".cg")
            m_o = gl.load(other + BLOCK_M * HEAD_DIM + rows_s, mask=ok_s, other=float("-inf"), cache_modifier=".cg")
            l_o = gl.load(other + BLOCK_M * (HEAD_DIM + 1) + rows_s, mask=ok_s, other=0.0, cache_modifier=".cg")
        else:
            acc_o = gl.load(other + o_offs, cache_modifier=".cg")
            m_o = gl.load(other + BLOCK_M * HEAD_DIM + rows_s, cache_modifier=".cg")
            l_o = gl.load(other + BLOCK_M * (HEAD_DIM + 1) + rows_s, cache_modifier=".cg")
        m_a = gl.where(FIRST, m_i, m_o)
        m_b = gl.where(FIRST, m_o, m_i)
        l_a = gl.where(FIRST, l_i, l_o)
        l_b = gl.where(FIRST, l_o, l_i)
        acc_a = gl.where(FIRST, acc, acc_o)
        acc_b = gl.where(FIRST, acc_o, acc)
        m_new, l_new, acc = _merge_states(m_a, l_a, acc_a, m_b, l_b, acc_b, row_o)
    return go, m_new, l_new, acc


@gluon.jit
def _merge_slots(slot_a, slot_b, dst, valid, o_desc, LSE, o_smem, b, h, bh, m0, SEQ_Q, BLOCK_M: gl.constexpr,
                 HEAD_DIM: gl.constexpr, ROOT: gl.constexpr, ROWS_MASKED: gl.constexpr, PACK: gl.constexpr = 0,
                 pk=None):
    """WS_MERGE (_consume_tile_split_kv): the states in workspace slots a and b (a's first) combined through
    registers MERGE_COLS columns at a time, so no 64 x HEAD_DIM accumulator is held twice. Not ROOT: the merged
    state (O unnormalised, m, l) into slot dst. ROOT: LSE, and O = O / l staged in o_smem (Q's tile: its GEMMs are
    done) for a TMA store. ROWS_MASKED: only the first `valid` rows (public) are read and written."""
    MERGE_COLS: gl.constexpr = 64
    cl: gl.constexpr = gl.BlockedLayout([1, 4], [2, 16], [4, 1], [1, 0])
    rows = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, cl))
    cols = gl.arange(0, MERGE_COLS, layout=gl.SliceLayout(0, cl))
    offs = rows[:, None] * HEAD_DIM + cols[None, :]
    if ROWS_MASKED and PACK:  # packed tiles: the rows of the block's heads' positions below `valid` (SEQ_Q)
        ok = _pack_rows(rows, valid, pk, PACK, BLOCK_M // PACK)[2]
    elif ROWS_MASKED:
        ok = rows < valid
    else:
        ok = rows < BLOCK_M
    ok2 = ok[:, None] & (cols >= 0)[None, :]
    m_a = gl.load(slot_a + BLOCK_M * HEAD_DIM + rows, mask=ok, other=float("-inf"), cache_modifier=".cg")
    l_a = gl.load(slot_a + BLOCK_M * (HEAD_DIM + 1) + rows, mask=ok, other=0.0, cache_modifier=".cg")
    m_b = gl.load(slot_b + BLOCK_M * HEAD_DIM + rows, mask=ok, other=float("-inf"), cache_modifier=".cg")
    l_b = gl.load(slot_b + BLOCK_M * (HEAD_DIM + 1) + rows, mask=ok, other=0.0, cache_modifier=".cg")
    m_new, l_new, w_a, w_b = _merge_weights(m_a, l_a, m_b, l_b)
    if ROOT:
        empty_row = l_new == 0.0
        l_safe = gl.where(empty_row, 1.0, l_new)
        lse = gl.where(empty_row, float("-inf"), (m_new + gl.log2(l_safe)) * 0.6931471805599453)
        if PACK:
            lse_offs, lse_ok = _pack_lse_offsets(rows, SEQ_Q, pk, BLOCK_M, PACK)
            gl.store(LSE + lse_offs, lse, mask=lse_ok)
        else:
            gl.store(LSE + bh.to(gl.int64) * SEQ_Q + m0 + rows, lse, mask=m0 + rows < SEQ_Q)
        inv = 1.0 / l_safe
        o_tile = o_smem.reshape([BLOCK_M, HEAD_DIM])
    else:
        gl.store(dst + BLOCK_M * HEAD_DIM + rows, m_new, mask=ok)
        gl.store(dst + BLOCK_M * (HEAD_DIM + 1) + rows, l_new, mask=ok)
    for c in gl.static_range(HEAD_DIM // MERGE_COLS):
        o_a = gl.load(slot_a + c * MERGE_COLS + offs, mask=ok2, other=0.0, cache_modifier=".cg")
        o_b = gl.load(slot_b + c * MERGE_COLS + offs, mask=ok2, other=0.0, cache_modifier=".cg")
        o = o_a * w_a[:, None] + o_b * w_b[:, None]
        if ROOT:
            o_tile.slice(c * MERGE_COLS, MERGE_COLS, dim=1).store((o * inv[:, None]).to(o_desc.dtype))
        else:
            gl.store(dst + c * MERGE_COLS + offs, o, mask=ok2)
    if ROOT:
        fence_async_shared()
        if PACK:
            _store_o(o_desc, o_smem, b, m0, SEQ_Q, pk, BLOCK_M, PACK)
        else:
            tma.async_copy_shared_to_global(o_desc, [b, m0, h, 0], o_smem)
        tma.store_wait(pendings=0)


# CLUSTER (session 43): the two programs of a SPLIT_KV=2 tile are one thread-block cluster of two CTAs (launched with
# cluster dims (2, 1, 1): cluster_launcher), CTA rank = part; part 1 takes the tile's first (n - 1) // 2 key blocks and
# part 0 the rest (_split_kv_unit), so part 1's hand-over runs beside part 0's last block (head dims up to 64 on 128-key
# blocks: n // 2, cluster_even, session 44). The meeting lives in shared
# memory past Triton's own allocation (byte offset CLUSTER; the launcher asks for cluster_bytes more): m, l, O
# unnormalised (fp32, row-major), an mbarrier, a ready word and an acknowledgement mbarrier. At its start part 0
# initialises its mbarrier, expects the copy's bytes on it (m, l and the O rows below SEQ_Q: _cluster_copy_bytes), and stores the call's nonce into part 1's ready word (distributed shared
# memory, after fence.mbarrier_init). At the meeting part 1 stages its state in its own area (generic stores, then
# fence.proxy.async), waits for its ready word to hold the nonce (acquire, cluster scope), clears it, and one thread
# copies the area into part 0's with one bulk copy that completes its bytes on part 0's mbarrier; part 0 waits for the
# barrier's phase (CTA scope, as TMA loads are waited for: the copy's completion makes its bytes visible), reads the
# state from its own shared memory, acknowledges (a relaxed arrive on part 1's acknowledgement mbarrier, which part 1
# initialised at its start: the copy has read part 1's area, which may now go; nothing else is ordered by it) and
# merges it after its own state (the same bits every time). Part 1 waits for the acknowledgement and exits. Session 44:
# O's columns swizzled in the area (_cluster_meeting), and the relaxed arrive and CTA-scope waits in place of a release
# arrive (MEMBAR.ALL.GPU before it) and cluster-scope waits (CCTL.IVALL after them): part 0's meeting 1,278 -> 624
# cycles past its last block at (1,8,512,64) (docs/perf-log.md).
# No global memory, no atomics. The ready word is never initialised (part 0 may write it before part 1 starts): part 1
# clears it once seen, before it exits, and a stale nonce is as unlikely as in the global meetings (_arrive_second).
# Every address is a public offset; the waits' trip counts depend on timing only (spin-waits, as the ring's).
@gluon.constexpr_function
def cluster_state_bytes(block_m, head_dim):
    """CLUSTER's state in the meeting area: m, then l, then O (block_m x head_dim, row-major) (fp32). The state's
    mbarrier, the ready word and the acknowledgement mbarrier (8 bytes each) follow at this offset (the kernel's BAR,
    BAR + 8, BAR + 16), so this one figure places them for the kernel and sizes the area for the host (cluster_bytes)."""
    return block_m * (head_dim + 2) * 4


@gluon.jit
def _cluster_copy_bytes(rows, BLOCK_M: gl.constexpr, HEAD_DIM: gl.constexpr):
    """The bytes of the meeting area the bulk copy moves (session 48): m and l of every row, then the O rows of the
    tile's first `rows` (public: its rows below SEQ_Q, 1 .. BLOCK_M). The other rows' O is never stored (the
    epilogue's TMA store and LSE stores clip them, the workspace levels mask them), so a decode tile of 4 query rows
    copies 2.5 KB instead of 33 KB at D=128 (the copy ran at about 16 bytes a cycle: session 43 call 7)."""
    return (2 * BLOCK_M + rows * HEAD_DIM) * 4


@gluon.jit
def _cluster_rows(SEQ_Q, m0, BLOCK_M: gl.constexpr):
    """CLUSTER: the tile's rows below SEQ_Q (1 .. BLOCK_M; public), those its meeting copies (_cluster_copy_bytes)."""
    return gl.minimum(gl.maximum(SEQ_Q - m0, 1), BLOCK_M)


def cluster_bytes(block_m, head_dim):
    """CLUSTER's area: the state (cluster_state_bytes), the state's mbarrier, the ready word and the acknowledgement
    mbarrier (8 bytes each)."""
    return cluster_state_bytes(block_m, head_dim) + 24


@gluon.constexpr_function
def cluster_check_asm(ctas):
    """A CLUSTER build launched without clusters of `ctas` CTAs (e.g. each CTA a cluster of one) would wait for its
    partners forever: the asm that traps instead."""
    return ("{\n.reg .pred p;\n.reg .u32 n;\nmov.u32 n, %cluster_nctarank;\n"
            f"setp.ne.u32 p, n, {ctas};\n@p trap;\nmov.u32 $0, 0;\n}}")
_CL_OPEN = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a, r, tx;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n"
                        "mov.u32 a, global_smem;\nadd.u32 a, a, $1;\ncvt.u32.u64 tx, $2;\n"
                        "@t0 mbarrier.init.shared::cta.b64 [a], 1;\n"
                        "@t0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [a], tx;\n"
                        "@t0 fence.mbarrier_init.release.cluster;\n"
                        "add.u32 a, a, 8;\nmapa.shared::cluster.u32 r, a, 1;\n"
                        "@t0 st.relaxed.cluster.shared::cluster.b64 [r], $3;\nmov.u32 $0, 0;\n}")
_CL_READY = gl.constexpr("{\n.reg .pred p;\n.reg .b64 v;\n.reg .u32 a;\nmov.u32 a, global_smem;\nadd.u32 a, a, $1;\n"
                         "CLRDY${:uid}:\nld.acquire.cluster.shared::cta.b64 v, [a];\nsetp.ne.b64 p, v, $2;\n"
                         "@p bra CLRDY${:uid};\nmov.u32 $0, 0;\n}")
_CL_CLEAR = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n"
                         "mov.u32 a, global_smem;\nadd.u32 a, a, $1;\n@t0 st.shared.b64 [a], 0;\nmov.u32 $0, 0;\n}")
_CL_WAIT = gl.constexpr("{\n.reg .pred p;\n.reg .u32 a;\nmov.u32 a, global_smem;\nadd.u32 a, a, $1;\n"
                        "CLWAIT${:uid}:\nmbarrier.try_wait.parity.shared::cta.b64 p, [a], 0;\n"
                        "@!p bra CLWAIT${:uid};\nmov.u32 $0, 0;\n}")
_CL_STAGE = gl.constexpr("{\n.reg .u32 a;\nmov.u32 a, global_smem;\nadd.u32 a, a, $1;\nst.shared.f32 [a], $2;\n"
                         "mov.u32 $0, 0;\n}")
_CL_STAGE2 = gl.constexpr("{\n.reg .u32 a;\nmov.u32 a, global_smem;\nadd.u32 a, a, $2;\n"
                          "st.shared.v2.f32 [a], {$4, $5};\nmov.u32 $0, 0;\nmov.u32 $1, 0;\n}")
_CL_GET2 = gl.constexpr("{\n.reg .u32 a;\nmov.u32 a, global_smem;\nadd.u32 a, a, $2;\nld.shared.v2.f32 {$0, $1}, [a];\n}")
_CL_COPY = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a, r, b, rb, n, x;\nmov.u32 tid, %tid.x;\n"
                        "setp.eq.u32 t0, tid, 0;\nmov.u32 a, global_smem;\nadd.u32 b, a, $1;\ncvt.u32.u64 n, $2;\n"
                        "cvt.u32.u64 x, $3;\nadd.u32 a, a, x;\n"
                        "mapa.shared::cluster.u32 r, a, 0;\nmapa.shared::cluster.u32 rb, b, 0;\n"
                        "@t0 cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [r], [a], n, [rb];\n"
                        "mov.u32 $0, 0;\n}")
_CL_ACK = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a, r;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n"
                       "mov.u32 a, global_smem;\nadd.u32 a, a, $1;\nmapa.shared::cluster.u32 r, a, 1;\n"
                       "@t0 mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [r];\nmov.u32 $0, 0;\n}")
_CL_OPEN_ACK = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n"
                            "mov.u32 a, global_smem;\nadd.u32 a, a, $1;\n@t0 mbarrier.init.shared::cta.b64 [a], 1;\n"
                            "@t0 fence.mbarrier_init.release.cluster;\nmov.u32 $0, 0;\n}")
_CL_FENCE = gl.constexpr("fence.proxy.async.shared::cta;\nmov.u32 $0, 0;")
_CL_GET = gl.constexpr("{\n.reg .u32 a;\nmov.u32 a, global_smem;\nadd.u32 a, a, $1;\nld.shared.f32 $0, [a];\n}")


@gluon.jit
def _cl_one(ASM: gl.constexpr, off, key0, key1=0):
    """One inline-asm block in every thread of the warpgroup (the asm picks thread 0 where it should)."""
    one: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    addr = gl.full([1], 0, gl.int32, one) + off
    a = gl.full([1], 0, gl.int64, one) + key0
    b = gl.full([1], 0, gl.int64, one) + key1
    gl.inline_asm_elementwise(ASM, "=r,r,l,l", [addr, a, b], dtype=gl.int32, is_pure=False, pack=1)


@gluon.jit
def _cl_stage(x, offs):
    gl.inline_asm_elementwise(_CL_STAGE, "=r,r,f", [offs, x], dtype=gl.int32, is_pure=False, pack=1)


@gluon.jit
def _cl_stage2(x, offs):
    """x in the wgmma accumulator's layout, offs its offsets: each pack of two is one thread's column pair (8 bytes)."""
    gl.inline_asm_elementwise(_CL_STAGE2, "=r,=r,r,r,f,f", [offs, x], dtype=gl.int32, is_pure=False, pack=2)


@gluon.jit
def _cl_get2(offs):
    return gl.inline_asm_elementwise(_CL_GET2, "=f,=f,r,r", [offs], dtype=gl.float32, is_pure=False, pack=2)


@gluon.jit
def _cl_get(offs):
    return gl.inline_asm_elementwise(_CL_GET, "=f,r", [offs], dtype=gl.float32, is_pure=False, pack=1)


@gluon.jit
def _cluster_open(part, nonce, rows, XOFF: gl.constexpr, BLOCK_M: gl.constexpr, HEAD_DIM: gl.constexpr):
    """CLUSTER, at each part's start: launched in clusters of two (else a trap, not a wait for ever); part 0's mbarrier
    initialised and expecting the copy's bytes (_cluster_copy_bytes of the tile's `rows`), part 1 told; part 1's
    acknowledgement mbarrier initialised."""
    BAR: gl.constexpr = XOFF + cluster_state_bytes(BLOCK_M, HEAD_DIM)
    _cl_one(cluster_check_asm(2), 0, 0)
    if part == 0:
        _cl_one(_CL_OPEN, BAR, _cluster_copy_bytes(rows, BLOCK_M, HEAD_DIM), nonce)
    else:
        _cl_one(_CL_OPEN_ACK, BAR + 16, 0)


_STAMP_ASM = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid;\n.reg .u64 c, g;\nmov.u32 tid, %tid.x;\n"
                          "setp.eq.u32 t0, tid, 0;\nmov.u64 c, %clock64;\nmov.u64 g, %globaltimer;\n"
                          "@t0 st.global.v2.u64 [$1], {c, g};\nmov.u32 $0, 0;\n}")


@gluon.jit
def _stamp_at(stamps, idx):
    """(experiments: STAMP) thread 0 writes (%clock64, %globaltimer) at stamps[2 (8 pid + idx)]."""
    one: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    addr = gl.full([1], 0, gl.int64, one) + (stamps + (gl.program_id(0) * 8 + idx) * 2).to(gl.int64, bitcast=True)
    gl.inline_asm_elementwise(_STAMP_ASM, "=r,l", [addr], dtype=gl.int32, is_pure=False, pack=1)


@gluon.jit
def _cluster_area(XOFF: gl.constexpr, BLOCK_M: gl.constexpr, HEAD_DIM: gl.constexpr, row_s: gl.constexpr,
                  o_layout: gl.constexpr):
    """A meeting area's byte offsets in shared memory, from XOFF: (O's in the wgmma accumulator's layout, m's, l's
    in row_s). m, then l, then O row-major with each row's columns XOR 8 x (row % 4) (session 44): a warp's 8-byte
    stores and loads of the accumulator touch 8 rows at once, which row-major puts on the same 8 banks (8-way
    conflicts); swizzled, each such access takes the two wavefronts its 256 bytes need. Sender and receiver use these
    offsets, so any bijection serves; O's rows stay whole, so a copy of the first rows (_cluster_copy_bytes) is one
    range."""
    rows_o = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, o_layout))
    cols_o = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(0, o_layout))
    o_offs = XOFF + (2 * BLOCK_M + rows_o[:, None] * HEAD_DIM + (cols_o[None, :] ^ ((rows_o[:, None] % 4) * 8))) * 4
    m_offs = XOFF + gl.arange(0, BLOCK_M, layout=row_s) * 4
    return o_offs, m_offs, m_offs + BLOCK_M * 4


@gluon.jit
def _cluster_meeting(m_i, l_i, acc, part, nonce, rows, XOFF: gl.constexpr, BLOCK_M: gl.constexpr,
                     HEAD_DIM: gl.constexpr, row_s: gl.constexpr, o_layout: gl.constexpr, stamps=None):
    """CLUSTER: (go, m, l, O): part 1 sends its state to part 0 (go False); part 0 (go True) merges it after its own.
    The copy carries O's first `rows` rows (_cluster_copy_bytes); part 0's O rows past them merge whatever its area
    holds, and are never stored."""
    row_o: gl.constexpr = gl.SliceLayout(1, o_layout)
    o_offs, m_offs, l_offs = _cluster_area(XOFF, BLOCK_M, HEAD_DIM, row_s, o_layout)
    BAR: gl.constexpr = XOFF + cluster_state_bytes(BLOCK_M, HEAD_DIM)
    go = part == 0
    m_new = m_i
    l_new = l_i
    if go:
        _cl_one(_CL_WAIT, BAR, 0)
        if stamps is not None:
            _stamp_at(stamps, 5)
        acc_o = _cl_get2(o_offs)
        m_o = _cl_get(m_offs)
        l_o = _cl_get(l_offs)
        _cl_one(_CL_ACK, BAR + 16, 0)  # part 1's copy has been read: it may exit
        if stamps is not None:
            _stamp_at(stamps, 6)
        m_new, l_new, acc = _merge_states(m_i, l_i, acc, m_o, l_o, acc_o, row_o)
    else:
        _cl_stage2(acc, o_offs)
        _cl_stage(m_i, m_offs)
        _cl_stage(l_i, l_offs)
        _cl_one(_CL_FENCE, 0, 0)  # the generic stores before the bulk copy (async proxy) reads them
        if stamps is not None:
            _stamp_at(stamps, 5)
        _cl_one(_CL_READY, BAR + 8, nonce)
        gl.thread_barrier()  # every thread's stores, and every thread has seen the ready word
        if stamps is not None:
            _stamp_at(stamps, 6)
        _cl_one(_CL_CLEAR, BAR + 8, 0)
        _cl_one(_CL_COPY, BAR, _cluster_copy_bytes(rows, BLOCK_M, HEAD_DIM), XOFF)
        if stamps is not None:
            _stamp_at(stamps, 7)
        _cl_one(_CL_WAIT, BAR + 16, 0)  # part 0 has the state (its mbarrier's phase): this area is free
    return go, m_new, l_new, acc


# CLUSTER_N = 4 (session 48): each four parts (4k .. 4k + 3) of a CL_TREE split are one cluster of four CTAs, meeting in
# two levels of distributed shared memory: at level 0 rank 1 sends to rank 0 and rank 3 to rank 2, at level 1 rank 2
# (with rank 3's state merged) to rank 0, each as the two-CTA meeting above (the sender stages its state in its own area
# of that level, waits for the receiver's ready word, one bulk copy into the receiver's area of that level completing on
# its mbarrier, the receiver's acknowledgement), so a level costs a copy of the tile's rows instead of a global level's
# three L2 round trips (session 48 call 5: about 950 cycles against 2,200). Each level has its own area (cluster_bytes x
# 2 past CLUSTER), its own mbarrier, ready word and acknowledgement mbarrier, so rank 2 may send before rank 0 has merged
# rank 1's state. The levels above (parts >= 8) meet in the workspace's tree from level 2.
# CLUSTER_N = 8 (session 49): each eight parts one cluster of eight CTAs (the portable cluster size), a third level in
# shared memory (rank 4, with ranks 5-7 merged, to rank 0), so eight parts need no workspace and sixteen one global level.
# Level L: rank r receives from r + 2^L where r % 2^(L+1) == 0 and sends to r - 2^L where r % 2^(L+1) == 2^L. Three full
# areas do not fit beside D=128's tiles (248 KB), so level 2 reuses level 0's area with its own three words (24 bytes
# past level 0's: cluster_level_words), and rank 0 tells rank 4 that the area is free only once every thread has read
# level 0's state instead of at its start: level 2's ready word is an mbarrier in rank 4 (initialised at its start, which
# it tells rank 0 through rank 0's word in the same place: _CL_OPEN_READY), on which rank 0 arrives with a release at
# cluster scope (_CL_TELL: one MEMBAR.ALL.GPU) after a thread barrier. So rank 4's wait for it is an mbarrier wait, not a
# spin on a shared-memory load (a timing-driven count of LSU instructions: session 49 call 3's counters), and rank 0's
# check of rank 4's word comes thousands of cycles after rank 4's start. Rank 4, which received at level 0 in that area
# of its own, stages its level-2 state there after a thread barrier; it needs the area only after two levels of its own,
# so the later tell costs no wait where rank 0 is not late.
# CLUSTER_N = 16 (prepared in session 49, shipped in session 50: variants.SM90_FEW_PROGRAMS_CL16_TREE): a non-portable size
# (cluster_launcher allows it on the function), four levels; level L >= 2 lies in level L - 2's area (area L % 2) with
# its words 24 bytes past that level's, and each receiver of level L >= 2 tells its sender after its reads of level
# L - 2 (cluster_tells), as level 2 of eight does.
_CL4_OPEN = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a, r, tx;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n"
                         "mov.u32 a, global_smem;\nadd.u32 a, a, $1;\ncvt.u32.u64 tx, $2;\n"
                         "@t0 mbarrier.init.shared::cta.b64 [a], 1;\n"
                         "@t0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [a], tx;\n"
                         "@t0 fence.mbarrier_init.release.cluster;\n"
                         "add.u32 a, a, 8;\nmapa.shared::cluster.u32 r, a, $4;\n"
                         "@t0 st.relaxed.cluster.shared::cluster.b64 [r], $3;\nmov.u32 $0, 0;\n}")
# (CLUSTER_N = 8, level 2's receiver) the mbarrier initialised and expecting the copy's bytes; its sender told later
_CL_OPEN_RECV = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a, tx;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n"
                             "mov.u32 a, global_smem;\nadd.u32 a, a, $1;\ncvt.u32.u64 tx, $2;\n"
                             "@t0 mbarrier.init.shared::cta.b64 [a], 1;\n"
                             "@t0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [a], tx;\n"
                             "@t0 fence.mbarrier_init.release.cluster;\nmov.u32 $0, 0;\n}")
# (CLUSTER_N = 8, level 2's sender) its ready mbarrier initialised (rank 0 arrives on it once level 0's area is free),
# and rank 0 told so through its word for it (uninitialised, cleared once seen, as the ready words)
_CL_OPEN_READY = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a, r;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n"
                              "mov.u32 a, global_smem;\nadd.u32 a, a, $1;\n@t0 mbarrier.init.shared::cta.b64 [a], 1;\n"
                              "@t0 fence.mbarrier_init.release.cluster;\nmapa.shared::cluster.u32 r, a, $4;\n"
                              "@t0 st.relaxed.cluster.shared::cluster.b64 [r], $3;\nmov.u32 $0, 0;\n}")
# ... and rank 0's arrival on it, a release at cluster scope (every thread's reads of the area done before it)
_CL_TELL = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a, r;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n"
                        "mov.u32 a, global_smem;\nadd.u32 a, a, $1;\nmapa.shared::cluster.u32 r, a, $4;\n"
                        "@t0 mbarrier.arrive.release.cluster.shared::cluster.b64 _, [r];\nmov.u32 $0, 0;\n}")
_CL4_COPY = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a, r, b, rb, n, x;\nmov.u32 tid, %tid.x;\n"
                         "setp.eq.u32 t0, tid, 0;\nmov.u32 a, global_smem;\nadd.u32 b, a, $1;\ncvt.u32.u64 n, $2;\n"
                         "cvt.u32.u64 x, $3;\nadd.u32 a, a, x;\n"
                         "mapa.shared::cluster.u32 r, a, $4;\nmapa.shared::cluster.u32 rb, b, $4;\n"
                         "@t0 cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [r], [a], n, [rb];\n"
                         "mov.u32 $0, 0;\n}")
_CL4_ACK = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid, a, r;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n"
                        "mov.u32 a, global_smem;\nadd.u32 a, a, $1;\nmapa.shared::cluster.u32 r, a, $4;\n"
                        "@t0 mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [r];\nmov.u32 $0, 0;\n}")


@gluon.jit
def _cl4_one(ASM: gl.constexpr, off, key0, key1, rank):
    """One inline-asm block in every thread of the warpgroup, with a target CTA rank in the cluster ($4)."""
    one: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    addr = gl.full([1], 0, gl.int32, one) + off
    a = gl.full([1], 0, gl.int64, one) + key0
    b = gl.full([1], 0, gl.int64, one) + key1
    r = gl.full([1], 0, gl.int32, one) + rank
    gl.inline_asm_elementwise(ASM, "=r,r,l,l,r", [addr, a, b, r], dtype=gl.int32, is_pure=False, pack=1)


@gluon.constexpr_function
def cluster4_area(block_m, head_dim):
    """CLUSTER_N = 4 / 8: the bytes of one level's area (the state, its mbarrier, ready word and acknowledgement
    mbarrier, then CLUSTER_N = 8's level-2 triplet), 128-byte aligned; level L's area starts L areas past CLUSTER (level
    2 of eight: level 0's, cluster_level_area)."""
    return -(-(cluster_state_bytes(block_m, head_dim) + 48) // 128) * 128


_CLUSTER_LEVELS = {2: 1, 4: 2, 8: 3, 16: 4}  # the meeting's levels in shared memory by cluster size: log2


@gluon.constexpr_function
def cluster_level_area(level, area):
    """CLUSTER_N = 4 / 8 / 16: level `level`'s area, in bytes past CLUSTER: levels 0 and 1 in areas 0 and 1; level L >= 2
    (clusters of eight or more) in level L - 2's (area L % 2), its words cluster_level_words past the area's BAR."""
    return (level % 2) * area


@gluon.constexpr_function
def cluster_level_words(level):
    """CLUSTER_N = 4 / 8 / 16: where level `level`'s mbarrier, ready word and acknowledgement lie past its area's BAR: at
    BAR for levels 0 and 1, 24 bytes past it for levels 2 and 3 (the earlier level's three words come first there)."""
    return 24 if level >= 2 else 0


@gluon.constexpr_function
def cluster_tells(level, cluster_n):
    """CLUSTER_N >= 8: whether a receiver at level `level` tells the sender of level + 2 (into the same area) that the
    area is free once it has read this level's state: where that level exists."""
    return level + 2 < _CLUSTER_LEVELS[cluster_n]


@gluon.constexpr_function
def cluster_levels(cluster_n):
    """The meeting's levels in shared memory in a cluster of cluster_n CTAs (2, 4, 8 or 16): log2."""
    return _CLUSTER_LEVELS[cluster_n]


@gluon.jit
def _clusterq_open(rank, nonce, rows, XOFF: gl.constexpr, BLOCK_M: gl.constexpr, HEAD_DIM: gl.constexpr,
                   CLUSTER_N: gl.constexpr):
    """CLUSTER_N = 4 / 8, at each part's start: launched in clusters of CLUSTER_N (else a trap); each receiver's
    mbarrier of the levels it receives at initialised and expecting the copy's bytes, its sender told (its ready word;
    level 2 of eight: later, _clusterq_meeting); each sender's acknowledgement mbarrier of the level it sends at
    initialised. rank: the part's rank in its cluster (part % CLUSTER_N)."""
    AREA: gl.constexpr = cluster4_area(BLOCK_M, HEAD_DIM)
    BAR: gl.constexpr = XOFF + cluster_state_bytes(BLOCK_M, HEAD_DIM)
    nbytes = _cluster_copy_bytes(rows, BLOCK_M, HEAD_DIM)
    _cl_one(cluster_check_asm(CLUSTER_N), 0, 0)
    for L in gl.static_range(cluster_levels(CLUSTER_N)):
        S = 1 << L
        LBAR = cluster_level_area(L, AREA) + BAR + cluster_level_words(L)
        if rank % (2 * S) == 0:  # receives at level L from rank + S
            if L >= 2:
                _cl_one(_CL_OPEN_RECV, LBAR, nbytes)
            else:
                _cl4_one(_CL4_OPEN, LBAR, nbytes, nonce, rank + S)
        elif rank % (2 * S) == S:  # sends at level L
            if L >= 2:
                _cl4_one(_CL_OPEN_READY, LBAR + 8, 0, nonce, rank - S)
            _cl_one(_CL_OPEN_ACK, LBAR + 16, 0)


@gluon.jit
def _clusterq_level(m_i, l_i, acc, send, recv, peer, nonce, rows, XOFF: gl.constexpr, BLOCK_M: gl.constexpr,
                    HEAD_DIM: gl.constexpr, row_s: gl.constexpr, o_layout: gl.constexpr, W: gl.constexpr = 0,
                    tell=False, TELL: gl.constexpr = False, REUSED: gl.constexpr = False, tell_to=0):
    """One level of the four- or eight-CTA meeting in the area at XOFF (its words W bytes past its BAR): where `send`,
    this part's state staged and copied into rank `peer`'s area (then it waits for the acknowledgement); where `recv`,
    rank `peer`'s state read from this area, acknowledged and merged after this part's own. Both public (the rank).
    TELL (clusters of eight or more, level L with a level L + 2): where `tell` (the receivers of level L + 2), once
    every thread has read the state, rank `tell_to` (the sender of level L + 2) told that this area is free for its copy
    (an arrival on its ready mbarrier, once its word here says that it is initialised). REUSED (levels 2 and 3): the
    sender read its own state of level L - 2 from this area (a thread barrier before it stages), and waits for that
    arrival instead of a ready word."""
    row_o: gl.constexpr = gl.SliceLayout(1, o_layout)
    o_offs, m_offs, l_offs = _cluster_area(XOFF, BLOCK_M, HEAD_DIM, row_s, o_layout)
    BAR: gl.constexpr = XOFF + cluster_state_bytes(BLOCK_M, HEAD_DIM) + W
    m_new = m_i
    l_new = l_i
    if recv:
        _cl_one(_CL_WAIT, BAR, 0)
        acc_o = _cl_get2(o_offs)
        m_o = _cl_get(m_offs)
        l_o = _cl_get(l_offs)
        _cl4_one(_CL4_ACK, BAR + 16, 0, 0, peer)  # the sender's copy has been read: it may go on
        if TELL:
            if tell:  # rank TELL's level-2 ready mbarrier (its word here says it is initialised): this area is free
                _cl_one(_CL_READY, BAR + 24 + 8, nonce)
                gl.thread_barrier()  # every thread's reads of this area, and every thread has seen the word
                _cl_one(_CL_CLEAR, BAR + 24 + 8, 0)
                _cl4_one(_CL_TELL, BAR + 24 + 8, 0, 0, tell_to)
        m_new, l_new, acc = _merge_states(m_i, l_i, acc, m_o, l_o, acc_o, row_o)
    if send:
        if REUSED:
            gl.thread_barrier()  # every thread's reads of the earlier level's state in this area
        _cl_stage2(acc, o_offs)
        _cl_stage(m_i, m_offs)
        _cl_stage(l_i, l_offs)
        _cl_one(_CL_FENCE, 0, 0)  # the generic stores before the bulk copy (async proxy) reads them
        if REUSED:  # the receiver's arrival on this level's ready mbarrier: its area is free
            _cl_one(_CL_WAIT, BAR + 8, 0)
            gl.thread_barrier()  # every thread's stores
        else:
            _cl_one(_CL_READY, BAR + 8, nonce)
            gl.thread_barrier()  # every thread's stores, and every thread has seen the ready word
            _cl_one(_CL_CLEAR, BAR + 8, 0)
        _cl4_one(_CL4_COPY, BAR, _cluster_copy_bytes(rows, BLOCK_M, HEAD_DIM), XOFF, peer)
        _cl_one(_CL_WAIT, BAR + 16, 0)  # the receiver has the state: this area is free
    return m_new, l_new, acc


@gluon.jit
def _clusterq_meeting(m_i, l_i, acc, rank, nonce, rows, XOFF: gl.constexpr, BLOCK_M: gl.constexpr,
                      HEAD_DIM: gl.constexpr, row_s: gl.constexpr, o_layout: gl.constexpr, CLUSTER_N: gl.constexpr):
    """CLUSTER_N = 4 / 8 / 16: (go, m, l, O): at level L rank r + 2^L sends to rank r (r % 2^(L+1) == 0):
    four CTAs ranks 1 and 3 to 0 and 2, then 2 to 0; eight CTAs 1, 3, 5, 7 to 0, 2, 4, 6, then 2, 6 to 0, 4, then 4 to
    0. Rank 0 (go True) holds the parts' merged state, in the order rank 0, 1, 2, ... (the same bits every time)."""
    AREA: gl.constexpr = cluster4_area(BLOCK_M, HEAD_DIM)
    for L in gl.static_range(cluster_levels(CLUSTER_N)):
        S = 1 << L
        m_i, l_i, acc = _clusterq_level(m_i, l_i, acc, rank % (2 * S) == S, rank % (2 * S) == 0, rank ^ S, nonce, rows,
                                        XOFF + cluster_level_area(L, AREA), BLOCK_M, HEAD_DIM, row_s,
                                        o_layout, cluster_level_words(L),
                                        rank % (8 * S) == 0, cluster_tells(L, CLUSTER_N), L >= 2, rank + 4 * S)
    return rank == 0, m_i, l_i, acc


@gluon.jit
def _cluster_start(rank, nonce, rows, XOFF: gl.constexpr, BLOCK_M: gl.constexpr, HEAD_DIM: gl.constexpr,
                   CLUSTER_N: gl.constexpr):
    """CLUSTER, at each part's start: the opening of its cluster's meeting (rank: its rank in the cluster), two CTAs
    (_cluster_open) or four / eight (_clusterq_open)."""
    if CLUSTER_N >= 4:
        _clusterq_open(rank, nonce, rows, XOFF, BLOCK_M, HEAD_DIM, CLUSTER_N)
    else:
        _cluster_open(rank, nonce, rows, XOFF, BLOCK_M, HEAD_DIM)


@gluon.jit
def _cluster_meet(m_i, l_i, acc, rank, nonce, rows, XOFF: gl.constexpr, BLOCK_M: gl.constexpr, HEAD_DIM: gl.constexpr,
                  row_s: gl.constexpr, o_layout: gl.constexpr, CLUSTER_N: gl.constexpr, stamps=None):
    """CLUSTER: (go, m, l, O) of its cluster's meeting, two CTAs (_cluster_meeting, with its inner stamps where given)
    or four / eight (_clusterq_meeting); go in rank 0, which holds the merged state."""
    if CLUSTER_N >= 4:
        go, m_i, l_i, acc = _clusterq_meeting(m_i, l_i, acc, rank, nonce, rows, XOFF, BLOCK_M, HEAD_DIM, row_s,
                                              o_layout, CLUSTER_N)
    else:
        go, m_i, l_i, acc = _cluster_meeting(m_i, l_i, acc, rank, nonce, rows, XOFF, BLOCK_M, HEAD_DIM, row_s,
                                             o_layout, stamps)
    return go, m_i, l_i, acc


# CL_PULL (session 51; this form sessions 52-53): the one-cluster meeting of CLUSTER_N = 4 / 8 / 16 parts (D = 64 / 128)
# in one all-to-all exchange instead of log2(CLUSTER_N) serial levels (session 50 call 6: four levels of sixteen took
# about 6,900 cycles at D=128, each level's time following its bytes). Rank r owns O's columns [r C, (r + 1) C), C =
# HEAD_DIM / CLUSTER_N. Every thread of the cluster arrives at each of the cluster barrier's three phases: (1) at its
# start (relaxed; the consumer waits for it at the meeting: every CTA of the cluster has started, CUDA's rule before any
# distributed shared memory access), (2) "staged": the rank has staged its state in its own area (m and l of each row
# side by side, then O as CLUSTER_N column slices, each BLOCK_M x C row-major; the arrival a release at cluster scope,
# the wait an acquire), then each rank reads its slice of every rank's state straight from that rank's shared memory
# (ld.shared::cluster, predicated on the tile's rows below SEQ_Q: public) and merges the states in rank order as it goes
# (the same bits every time; every rank computes the same m and l), (3) "done": every rank has read (release), then it
# stores its slice of O straight to global memory (O_PTR and its strides; rank 0 stores LSE) and waits for phase 3
# before it exits (its area is free). Triton parks the warps no partition uses and parked warps never arrive (session 51
# call 9 hung), so these builds run four producer warps (attn_fwd_sm90_ws), arriving at phase 1 at their start and
# waiting and arriving at phases 2 and 3 at their end. With more parts than the cluster (PARTS = 2 or 4 x CLUSTER_N,
# session 53) each cluster exchanges so, then the clusters' slices of each rank's columns meet in the workspace
# (_clp_global). No global memory but O, LSE and that workspace; every address and predicate is a public offset
# (ranks, rows, strides); the waits' trip counts depend on timing only. History (docs/perf-log.md, sessions 51-53):
# bulk copies pushed each rank's slices into the others' receive areas, opened by ready words stored into every rank at
# its start (full grids failed while other processes shared the device; memcheck flagged the copies), then opened by
# the cluster barrier (memcheck still flagged every copy, "Access ... is not located in remote CTA", while the trees'
# copies pass; the copies were about 0.6 us faster than these loads, session 52 call 3; commit a8cae62 has them); the
# "staged" and "done" signals were release arrivals on mbarriers in every rank until session 53 (commit f2e684d; phases:
# 0.1-0.4 us faster, session 53 call 4).
def cluster_pull_bytes(block_m, head_dim, cluster_n):
    """CL_PULL: the bytes of the meeting's area past CLUSTER (cluster_launcher): the staged state (m / l pairs, then
    O's cluster_n column slices), 128-byte aligned."""
    return -(-block_m * (8 + 4 * head_dim) // 128) * 128


# launch_args(cluster_pull=None): the one-exchange meeting wherever cluster_pull_ok (session 52, H200): memcheck and
# synccheck clean (direct launches of 4 / 8 / 16 CTAs; sanitize_clusters.py), the whole test_gpu.py passed with it on
# (2,887), full grids in four processes at once, float64 checks and bitwise repeats; through the API (rule_check --set
# pull52, graph replay, us, exchange / tree / cuDNN) MQA (1,32,1,1,4096,128) 8.49 / 11.13 / 7.95, (4,32,1,1,8192,128)
# 11.64 / 15.17 / 15.01. docs/perf-log.md "Session 52".
CL_PULL_DEFAULT = True
# ... and (session 53) splits of two or four clusters a tile: each cluster exchanges, then the clusters' column slices
# meet in the workspace (_clp_global). Call 1 (H200, graph replay, 9 rounds, us; the exchange / the tree of levels): MQA
# of one sequence (1,1,1,32,S,128) 32 parts 8,192 keys 9.27 / 13.57, 16,384 11.59 / 16.16; 64 parts 32,768 13.36 /
# 20.07, 65,536 18.13 / 25.15; D=64 16,384 (32) 9.23 / 10.41, 32,768 (64) 10.25 / 13.50; (2,1,1,32,16384,128) 12.42 /
# 16.67. Clusters a tile that may exchange:
CL_PULL_CLUSTERS = (1, 2, 4)


def cluster_pull_ok(out, head_dim, parts, cluster_n):
    """Whether a CLUSTER_N build of `parts` parts at the kernel's head dim `head_dim` can meet in one exchange
    (CL_PULL): one, two or four clusters a tile (more than one: their column slices then meet in the workspace), D = 64
    or 128 (each rank's columns a power of two, at least 4) and out (B, S, H, D) of that head dim with unit column
    stride and the other strides multiples of 8 (its parts' vector stores)."""
    return (cluster_n in (4, 8, 16) and parts in [cluster_n * g for g in CL_PULL_CLUSTERS] and head_dim in (64, 128)
            and out.shape[3] == head_dim
            and out.stride(3) == 1 and all(st % 8 == 0 for st in out.stride()[:3]))


_CLP_CWAIT = gl.constexpr("barrier.cluster.wait.acquire;\nmov.u32 $0, 0;")
_CLP_CARRIVE = gl.constexpr("barrier.cluster.arrive.relaxed;\nmov.u32 $0, 0;")
# (phases 2 and 3: a consumer thread's "staged" arrival and wait, its "done" arrival; the producer warps' end)
_CLP_CPHASE = gl.constexpr("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\nmov.u32 $0, 0;")
_CLP_CARRIVE_REL = gl.constexpr("barrier.cluster.arrive.release;\nmov.u32 $0, 0;")
_CLP_PRODUCER_END = gl.constexpr("barrier.cluster.wait.acquire;\nbarrier.cluster.arrive.relaxed;\n"
                                 "barrier.cluster.wait.acquire;\nbarrier.cluster.arrive.relaxed;\nmov.u32 $0, 0;")


@gluon.constexpr_function
def _clp_rget_asm(q, vec):
    """CL_PULL: vec (1, 2 or 4) consecutive floats of rank q's shared memory at the offset $vec (past global_smem),
    where $(2 vec) is not 0 (else zeros)."""
    outs = ", ".join(f"${i}" for i in range(vec))
    zero = "".join(f"mov.b32 ${i}, 0;\n" for i in range(vec))
    kind = "" if vec == 1 else f".v{vec}"
    return ("{\n.reg .pred p;\n.reg .u32 a, r;\n" + zero + f"setp.ne.u32 p, ${2 * vec}, 0;\n"
            f"mov.u32 a, global_smem;\nadd.u32 a, a, ${vec};\nmapa.shared::cluster.u32 r, a, {q};\n"
            f"@p ld.shared::cluster{kind}.f32 " + ("{" + outs + "}" if vec > 1 else outs) + ", [r];\n}")


@gluon.jit
def _clp_rget(offs, ok, q: gl.constexpr, VEC: gl.constexpr):
    """CL_PULL: rank q's floats at offs (past global_smem) where ok (int32) is not 0, else 0; VEC (1, 2 or a multiple
    of 4) consecutive floats a thread."""
    if VEC == 1:
        return gl.inline_asm_elementwise(_clp_rget_asm(q, 1), "=f,r,r", [offs, ok], dtype=gl.float32, is_pure=False,
                                         pack=1)
    elif VEC == 2:
        return gl.inline_asm_elementwise(_clp_rget_asm(q, 2), "=f,=f,r,r,r,r", [offs, ok], dtype=gl.float32,
                                         is_pure=False, pack=2)
    else:
        return gl.inline_asm_elementwise(_clp_rget_asm(q, 4), "=f,=f,=f,=f,r,r,r,r,r,r,r,r", [offs, ok],
                                         dtype=gl.float32, is_pure=False, pack=4)


@gluon.jit
def _clusterp_open(CLUSTER_N: gl.constexpr):
    """CL_PULL, at each part's start: launched in clusters of CLUSTER_N (else a trap); its arrival at phase 1 of the
    cluster barrier (every CTA has started)."""
    _cl_one(cluster_check_asm(CLUSTER_N), 0, 0)
    _cl_one(_CLP_CARRIVE, 0, 0)


@gluon.jit
def _clp_global(m_f, l_f, o_f, r_p, c_p, rows, rank, part, u, ws, flags, nonce, BLOCK_M: gl.constexpr,
                C: gl.constexpr, CLUSTER_N: gl.constexpr, PARTS: gl.constexpr, prow: gl.constexpr):
    """CL_PULL with PARTS = G x CLUSTER_N (G = 2 or 4 clusters a tile): rank `rank` of cluster g = part // CLUSTER_N
    holds its cluster's merged state of its C columns; the G clusters' states of those columns meet in a binary tree
    in the workspace, each rank's tree apart from the others' (a slice's state: BLOCK_M x C floats, then m and l, a
    sixteenth of a whole state at D=128 in clusters of sixteen), each meeting a _hand_over of slices as the global
    levels of CL_TREE are of whole states (the second to arrive merges the pair, the lower node's first). (go, m, l,
    O): go in the program that merged at the root (public: timing, not data); its state is the tile's for these
    columns. Rank r's slots: (2 G - 2) from r (2 G - 2) SSLOT past the unit's, level L's from 2 G - 2 (G >> L); its
    flags: G - 1 from r (G - 1) past the unit's, level L's from G - (G >> L) (split_kv_workspace has room: 2 PARTS - 2
    slots of BLOCK_M (HEAD_DIM + 2) and PARTS - 1 flags a unit). Rows at or past `rows` (SEQ_Q, public) are neither
    stored nor loaded."""
    G: gl.constexpr = PARTS // CLUSTER_N
    gl.static_assert(G == 2 or G == 4, "CL_PULL across clusters: 2 or 4 clusters a tile")
    SSLOT: gl.constexpr = BLOCK_M * (C + 2)  # a slice's state: O's columns (BLOCK_M x C, row-major), then m, then l
    g = part // CLUSTER_N
    base = ws + (u * (2 * PARTS - 2)).to(gl.int64) * (BLOCK_M * (CLUSTER_N * C + 2)) + rank * ((2 * G - 2) * SSLOT)
    fbase = flags + u * (PARTS - 1) + rank * (G - 1)
    offs = r_p[:, None] * C + c_p[None, :]
    go = True
    for LVL in gl.static_range(0, 2):
        if (G >> LVL) >= 2:
            if go:
                node = g >> LVL
                go, m_f, l_f, o_f = _hand_over(m_f, l_f, o_f, base + (2 * G - 2 * (G >> LVL) + node) * SSLOT,
                                               base + (2 * G - 2 * (G >> LVL) + (node ^ 1)) * SSLOT,
                                               fbase + G - (G >> LVL) + node // 2, nonce, node % 2 == 0, offs, r_p,
                                               BLOCK_M, C, prow, rows, True)
    return go, m_f, l_f, o_f


@gluon.jit
def _clusterp_meeting(m_i, l_i, acc, rank, rows, XOFF: gl.constexpr, BLOCK_M: gl.constexpr, HEAD_DIM: gl.constexpr,
                      row_s: gl.constexpr, o_layout: gl.constexpr, CLUSTER_N: gl.constexpr, o_ptrs, LSE, b, h, bh, m0,
                      SEQ_Q, dtype: gl.constexpr, stamps=None, PARTS: gl.constexpr = 0, part=0, u=0, ws=None,
                      flags=None, nonce=0):
    """CL_PULL: the one-cluster meeting in one exchange (see cluster_pull_bytes' comment); stores this rank's columns
    of O (and in rank 0 LSE). PARTS > CLUSTER_N (PARTS / CLUSTER_N = 2 or 4 clusters a tile, part: the program's
    part): the clusters' merged column slices then meet in the workspace, rank by rank (_clp_global)."""
    C: gl.constexpr = HEAD_DIM // CLUSTER_N
    VEC: gl.constexpr = C // 2
    SLICE: gl.constexpr = BLOCK_M * C * 4
    gl.static_assert(VEC == 2 or VEC % 4 == 0, "CL_PULL: a rank's columns in pairs of 2 or of multiples of 4")
    # the staged state: m / l of row i at 8 i, O's (row i, column j) in slice j // C at row-major (i, j % C)
    rows_o = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, o_layout))
    cols_o = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(0, o_layout))
    o_offs = XOFF + BLOCK_M * 8 + ((cols_o[None, :] // C) * BLOCK_M + rows_o[:, None]) * (C * 4) \
        + (cols_o[None, :] % C) * 4
    ml_offs = XOFF + gl.arange(0, BLOCK_M, layout=row_s) * 8
    _cl_stage2(acc, o_offs)
    _cl_stage(m_i, ml_offs)
    _cl_stage(l_i, ml_offs + 4)  # (each thread's own release arrival at phase 2 orders its stores)
    if stamps is not None:
        _stamp_at(stamps, 5)
    _cl_one(_CLP_CWAIT, 0, 0)  # (phase 1) every CTA of the cluster has started
    _cl_one(_CLP_CPHASE, 0, 0)  # (phase 2) every rank's state is staged
    if stamps is not None:
        _stamp_at(stamps, 6)
    # this rank's columns of every rank's state, merged in rank order as they are read
    pl: gl.constexpr = gl.BlockedLayout([1, VEC], [16, 2], [4, 1], [1, 0])
    prow: gl.constexpr = gl.SliceLayout(1, pl)
    r_p = gl.arange(0, BLOCK_M, layout=prow)
    c_p = gl.arange(0, C, layout=gl.SliceLayout(0, pl))
    live = (r_p < rows).to(gl.int32)  # the tile's rows below SEQ_Q (public): the others are never stored
    live2 = live[:, None] + c_p[None, :] * 0
    ml_src = XOFF + r_p * 8
    o_src = XOFF + BLOCK_M * 8 + rank * SLICE + r_p[:, None] * (C * 4) + c_p[None, :] * 4  # slice `rank`
    m_f = gl.full([BLOCK_M], float("-inf"), gl.float32, layout=prow)
    l_f = gl.zeros([BLOCK_M], gl.float32, layout=prow)
    o_f = gl.zeros([BLOCK_M, C], gl.float32, layout=pl)
    for q in gl.static_range(CLUSTER_N):
        m_q = _clp_rget(ml_src, live, q, 1)
        l_q = _clp_rget(ml_src + 4, live, q, 1)
        o_q = _clp_rget(o_src, live2, q, VEC)
        m_f, l_f, o_f = _merge_states(m_f, l_f, o_f, m_q, l_q, o_q, prow)
    _cl_one(_CLP_CARRIVE_REL, 0, 0)  # (phase 3) done with every rank's area
    go = True
    if PARTS > CLUSTER_N:  # the clusters' slices of this rank's columns meet in the workspace
        go, m_f, l_f, o_f = _clp_global(m_f, l_f, o_f, r_p, c_p, rows, rank, part, u, ws, flags, nonce, BLOCK_M, C,
                                        CLUSTER_N, PARTS, prow)
    empty_row = l_f == 0.0
    l_safe = gl.where(empty_row, 1.0, l_f)
    AL: gl.constexpr = 8 if VEC >= 8 else VEC
    o_ptr, o_sb, o_ss, o_sh = o_ptrs  # strides: multiples of 8 elements (cluster_pull_ok)
    base = o_ptr + gl.multiple_of(b.to(gl.int64) * o_sb, AL) + gl.multiple_of(h.to(gl.int64) * o_sh, AL) + rank * C
    row_offs = gl.multiple_of((m0 + r_p).to(gl.int64) * o_ss, AL)
    if go:  # (PARTS > CLUSTER_N: the program that merged the slices' last two states; public)
        gl.store(base + row_offs[:, None] + c_p[None, :], (o_f * (1.0 / l_safe)[:, None]).to(dtype),
                 mask=(r_p < rows)[:, None])
        if rank == 0:
            lse = gl.where(empty_row, float("-inf"), (m_f + gl.log2(l_safe)) * 0.6931471805599453)
            gl.store(LSE + bh.to(gl.int64) * SEQ_Q + m0 + r_p, lse, mask=r_p < rows)
    if stamps is not None:
        _stamp_at(stamps, 7)
    _cl_one(_CLP_CWAIT, 0, 0)  # (phase 3) every rank is done with this rank's area: it may go


@gluon.jit
def _consume_tile_split_kv(o_desc, LSE, q_smem, o_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k,
                           empty_v, kvs, part, u, i, c, b, h, bh, m0, n, qk_scale, SEQ_Q, SEQ_K, CAUSAL_OFFSET,
                           BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr, CAUSAL: gl.constexpr,
                           STAGES: gl.constexpr, num_warps: gl.constexpr, O_SMEM: gl.constexpr,
                           PARTS: gl.constexpr = 2, PV_OVERLAP: gl.constexpr = False,
                           ROWS_MASKED: gl.constexpr = False, PACK: gl.constexpr = 0, pk=None,
                           CLUSTER: gl.constexpr = 0, STAMP: gl.constexpr = False, CLUSTER_N: gl.constexpr = 2,
                           CL_PULL: gl.constexpr = False):
    """SPLIT_KV (few-program grids, sessions 12 and 14): PARTS (2, 4, 8 or 16) programs share the BLOCK_M rows from m0
    (work unit u), program `part` computing part `part` of the tile's n key blocks (_split_kv_unit), so the tile's
    serial chain runs on PARTS SMs. Programs meet in a binary tree (_hand_over): parts 2k and 2k + 1 at flag k of
    the tile; the second to arrive merges the two states, part 2k's first. Each merged state meets its sibling the
    same way one level up (node part >> L; the lower node's state first), and the second to arrive at the root
    writes O and LSE. The others return. No program waits for another, so nothing depends on programs being
    resident together. Which program combines depends on timing only; the flags and the branches on them are
    public, the workspace's states secret (variants.Variant). Workspace per tile: a state slot for every node below
    the root, level by level (PARTS, PARTS / 2, ..., 2); flags per tile: one per meeting, level by level, PARTS - 1
    (split_kv_workspace). PACK (packed grouped-query tiles, m0 = 0): the tile's rows are the positions of the block's
    block of query heads in slots of PACK rows (pk: _pack_block; _pack_rows); the causal mask uses each row's query
    position."""
    ws, flags, nonce = kvs[0], kvs[1], kvs[2]
    if STAMP:
        _stamp_at(kvs[3], 0)
    c_rows = _cluster_rows(SEQ_Q, m0, BLOCK_M)  # (CLUSTER) the rows its meeting copies
    if CL_PULL:  # (each cluster of CLUSTER_N in one exchange) its arrival at the cluster barrier's first phase
        _clusterp_open(CLUSTER_N)
    elif CLUSTER:  # the receivers' mbarriers for the meeting, before anything else (CL_TREE: each cluster's)
        _cluster_start(part % CLUSTER_N, nonce, c_rows, CLUSTER, BLOCK_M, HEAD_DIM, CLUSTER_N)
    gl.static_assert(PARTS == 2 or PARTS == 4 or PARTS == 8 or PARTS == 16 or PARTS == 32 or PARTS == 64
                     or (PARTS == 1 and PACK > 0), "split KV: 2, 4, 8, 16, 32 or 64 programs per tile (1: packed)")
    s_layout: gl.constexpr = _acc_layout(num_warps, BLOCK_N)
    o_layout: gl.constexpr = _acc_layout(num_warps, HEAD_DIM)
    row_s: gl.constexpr = gl.SliceLayout(1, s_layout)
    row_o: gl.constexpr = gl.SliceLayout(1, o_layout)
    j_lo, n_own = _split_kv_unit(n, part, PARTS, CLUSTER,
                                 _cluster_split_even(SEQ_Q, m0, cluster_even(HEAD_DIM, BLOCK_N)), CLUSTER_N)
    t_full = gl.minimum(gl.maximum(_full_end(m0, SEQ_K, CAUSAL_OFFSET, CAUSAL) // BLOCK_N - j_lo, 0), n_own)
    m_i, l_i, acc, offs_m, offs_n0 = _row_state(m0, BLOCK_M, BLOCK_N, HEAD_DIM, s_layout, o_layout)
    if PACK:  # the causal mask's query positions: each row's position in its head (m0 = 0)
        offs_m = _pack_rows(offs_m, SEQ_Q, pk, PACK, BLOCK_M // PACK)[1]
    mbarrier.wait(q_bar, i & 1)
    if STAMP:
        _stamp_at(kvs[3], 1)
    if n_own > 0:
        m_i, l_i, acc = _visit_blocks(q_smem.reshape([BLOCK_M, HEAD_DIM]), k_ring, v_ring, ready_k, ready_v, empty_k,
                                      empty_v, q_empty, 13, 14, c, 0, t_full, n_own, n_own, m_i, l_i, acc, offs_m,
                                      offs_n0, qk_scale, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL,
                                      STAGES, s_layout, o_layout, False, False, 1, O_SMEM, 0, j_lo,
                                      PV_OVERLAP)
    elif O_SMEM:
        mbarrier.arrive(q_empty, count=1)
    if STAMP:
        _stamp_at(kvs[3], 2)
    if PARTS == 1:  # PACK without a split (packed grids the split rules leave unsplit): one program per packed tile
        _epilogue(o_desc, LSE, acc, m_i, l_i, offs_m, b, h, bh, m0, SEQ_Q, o_smem, BLOCK_M, HEAD_DIM, o_layout, False,
                  PACK, pk)
    elif CL_PULL:  # the tile's programs are one cluster meeting in one exchange: each stores its columns of O
        _clusterp_meeting(m_i, l_i, acc, part % CLUSTER_N, c_rows, CLUSTER, BLOCK_M, HEAD_DIM, row_s, o_layout,
                          CLUSTER_N, (kvs[4], kvs[5], kvs[6], kvs[7]), LSE, b, h, bh, m0, SEQ_Q, o_desc.dtype,
                          kvs[3] if STAMP else None, PARTS, part, u, ws, flags, nonce)
        if STAMP:
            _stamp_at(kvs[3], 3)
            _stamp_at(kvs[3], 4)
    elif CLUSTER and PARTS == CLUSTER_N:  # the tile's programs are one cluster: the meeting in part 0's shared memory
        go, m_i, l_i, acc = _cluster_meet(m_i, l_i, acc, part, nonce, c_rows, CLUSTER, BLOCK_M, HEAD_DIM, row_s,
                                          o_layout, CLUSTER_N, kvs[3] if STAMP else None)
        if STAMP:
            _stamp_at(kvs[3], 3)
        if go:
            _epilogue(o_desc, LSE, acc, m_i, l_i, offs_m, b, h, bh, m0, SEQ_Q, o_smem, BLOCK_M, HEAD_DIM, o_layout,
                      False)
        if STAMP:
            _stamp_at(kvs[3], 4)
    else:
        SLOT: gl.constexpr = BLOCK_M * (HEAD_DIM + 2)  # a state: O (BLOCK_M x HEAD_DIM), then m, then l
        # D=256 (and 192): two O accumulators in registers spill (session 15); and at D=96 / 128 with 8 or more parts,
        # where the deeper tree's index arithmetic spilled once the shape arguments were no longer specialised, packed
        # builds included (their per-head row masks spill 64 bytes in the register merge; session 16); packed builds at
        # D=96 / 128 with 4 parts too (session 17 runs 7 and 11: in the register merge their 8-slot build ran x0.90 of
        # the 4-slot one at (4,32,8,4,8192,128), a spill slot and ptxas's schedule of the main loop apart); and clusters
        # of eight with two or more global levels above them at any head dim (session 49 call 6, D=64, H100, graph
        # replay, us: (1,1,1,32,16384) 32 parts 12.37 from the workspace / 14.46 in registers (the global tree 14.07),
        # (1,1,1,32,32768) 64 parts 15.25 / 20.38 (16.42); with one, sixteen parts, registers won: 10.48 / 11.32)
        WS_MERGE: gl.constexpr = HEAD_DIM > 128 or (HEAD_DIM > 64 and (PARTS >= 8 or (PACK > 0 and PARTS >= 4))) \
            or (CLUSTER > 0 and CLUSTER_N >= 8 and (PARTS >> cluster_levels(CLUSTER_N)) >= 4)
        SLOTS: gl.constexpr = 2 * PARTS - 2  # the nodes of the tree of meetings below its root (split_kv_workspace)
        NFLAGS: gl.constexpr = PARTS - 1  # its inner nodes: one flag per meeting
        rows_o = gl.arange(0, BLOCK_M, layout=row_o)
        cols_o = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(0, o_layout))
        rows_s = gl.arange(0, BLOCK_M, layout=row_s)
        o_offs = rows_o[:, None] * HEAD_DIM + cols_o[None, :]
        base = ws + (u * SLOTS).to(gl.int64) * SLOT
        # CL_TREE (CLUSTER with more than two parts, session 47): the tree's first level is each pair's cluster meeting
        # (_cluster_meeting: the odd part's state into the even one's shared memory), the levels above it in global
        # memory as below, from level 1 (the workspace's and flags' level-0 places unused)
        # (CLUSTER_N = 4 / 8: the first two / three levels in each cluster, _clusterq_meeting; the workspace's from
        # level 2 / 3)
        LVL0: gl.constexpr = cluster_levels(CLUSTER_N) if CLUSTER else 0
        if CLUSTER:
            go, m_i, l_i, acc = _cluster_meet(m_i, l_i, acc, part % CLUSTER_N, nonce, c_rows, CLUSTER, BLOCK_M, HEAD_DIM,
                                              row_s, o_layout, CLUSTER_N)
        if STAMP and CLUSTER:
            _stamp_at(kvs[3], 3)
        if WS_MERGE:  # every meeting from the workspace: both states are there, so O is never held twice
            gl.static_assert(not CLUSTER or (PARTS >> LVL0) >= 2, "the workspace's merges: a level above the cluster's")
            if CLUSTER:  # the cluster's merged state (node part >> LVL0 of level LVL0) meets its sibling's from the
                # workspace (level LVL0's slots from 2 PARTS - 2 (PARTS >> LVL0), its flags from PARTS - (PARTS >> LVL0))
                if go:
                    _store_state(base + (2 * PARTS - 2 * (PARTS >> LVL0) + part // (1 << LVL0)) * SLOT, acc, m_i, l_i,
                                 o_offs, rows_s, SEQ_Q - m0, BLOCK_M, HEAD_DIM, row_o, ROWS_MASKED, PACK, pk)
                    go = _arrive_meeting(flags + u * NFLAGS + PARTS - (PARTS >> LVL0) + part // (2 << LVL0), nonce)
            else:
                _store_state(base + part * SLOT, acc, m_i, l_i, o_offs, rows_s, SEQ_Q - m0, BLOCK_M, HEAD_DIM, row_o,
                             ROWS_MASKED, PACK, pk)
                go = _arrive_meeting(flags + u * NFLAGS + part // 2, nonce)
                if STAMP:
                    _stamp_at(kvs[3], 3)
            # Level LVL's nodes (PARTS >> LVL of them) have slots from 2 PARTS - 2 (PARTS >> LVL) and meet at flags from
            # PARTS - (PARTS >> LVL); node n's pair (n & ~1, n | 1) merges into node n // 2 of the next level.
            for LVL in gl.static_range(LVL0, 6):
                if (PARTS >> LVL) >= 2:
                    go_up = False
                    if go:
                        node = part >> LVL
                        pair = base + (2 * PARTS - 2 * (PARTS >> LVL) + (node // 2) * 2) * SLOT
                        if (PARTS >> LVL) == 2:
                            _merge_slots(pair, pair + SLOT, pair, SEQ_Q - m0, o_desc, LSE, o_smem, b, h, bh, m0,
                                         SEQ_Q, BLOCK_M, HEAD_DIM, True, ROWS_MASKED, PACK, pk)
                        else:
                            dst = base + (2 * PARTS - (PARTS >> LVL) + node // 2) * SLOT
                            _merge_slots(pair, pair + SLOT, dst, SEQ_Q - m0, o_desc, LSE, o_smem, b, h, bh, m0,
                                         SEQ_Q, BLOCK_M, HEAD_DIM, False, ROWS_MASKED, PACK, pk)
                            go_up = _arrive_meeting(flags + u * NFLAGS + PARTS - (PARTS >> (LVL + 1)) + node // 4,
                                                    nonce)
                    if STAMP and 4 + LVL < 8:  # (experiments) past level LVL: the program that goes on (the root:
                        if (PARTS >> LVL) == 2:  # past its merge)
                            if go:
                                _stamp_at(kvs[3], 4 + LVL)
                        elif go_up:
                            _stamp_at(kvs[3], 4 + LVL)
                    go = go_up
            if STAMP:
                _stamp_at(kvs[3], 4)
        else:
            if not CLUSTER:
                go, m_i, l_i, acc = _hand_over(m_i, l_i, acc, base + part * SLOT, base + (part ^ 1) * SLOT,
                                               flags + u * NFLAGS + part // 2, nonce, part % 2 == 0, o_offs, rows_s,
                                               BLOCK_M, HEAD_DIM, row_o, SEQ_Q - m0, ROWS_MASKED, PACK, pk)
                if STAMP:
                    _stamp_at(kvs[3], 3)
            # The tree's further levels: node part // 2^LVL of PARTS >> LVL meets its sibling; a level's slots follow
            # the lower levels' (2 PARTS - 2 (PARTS >> LVL) of them), its flags theirs (PARTS - (PARTS >> LVL)).
            for LVL in gl.static_range(LVL0 if CLUSTER else 1, 6):
                if (PARTS >> LVL) >= 2:
                    go_up = False
                    if go:  # this node's state (the merge just made) meets its sibling's
                        if (PARTS >> LVL) == 2:  # the root's two children, at the tree's last flag
                            pair = part // (PARTS // 2)
                            go_up, m_i, l_i, acc = _hand_over(m_i, l_i, acc, base + (2 * PARTS - 4 + pair) * SLOT,
                                                              base + (2 * PARTS - 3 - pair) * SLOT,
                                                              flags + u * NFLAGS + PARTS - 2, nonce, pair == 0, o_offs,
                                                              rows_s, BLOCK_M, HEAD_DIM, row_o, SEQ_Q - m0,
                                                              ROWS_MASKED, PACK, pk)
                        else:
                            node = part // (1 << LVL)
                            go_up, m_i, l_i, acc = _hand_over(m_i, l_i, acc,
                                                              base + (2 * PARTS - 2 * (PARTS >> LVL) + node) * SLOT,
                                                              base + (2 * PARTS - 2 * (PARTS >> LVL) + (node ^ 1))
                                                              * SLOT,
                                                              flags + u * NFLAGS + PARTS - (PARTS >> LVL) + node // 2,
                                                              nonce, node % 2 == 0, o_offs, rows_s, BLOCK_M, HEAD_DIM,
                                                              row_o, SEQ_Q - m0, ROWS_MASKED, PACK, pk)
                    if STAMP and 4 + LVL < 8:  # (experiments) past level LVL, in the program that goes on
                        if go_up:
                            _stamp_at(kvs[3], 4 + LVL)
                    go = go_up
            if go:
                _epilogue(o_desc, LSE, acc, m_i, l_i, offs_m, b, h, bh, m0, SEQ_Q, o_smem, BLOCK_M, HEAD_DIM, o_layout,
                          False, PACK, pk)
            if STAMP:
                _stamp_at(kvs[3], 4)
    if not O_SMEM:  # O was staged in Q's tile (by the program that combined) and its TMA store has read it
        mbarrier.arrive(q_empty, count=1)


@gluon.jit
def _ws_consumer(rt, W: gl.constexpr, SPLIT: gl.constexpr,
                 BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr, CAUSAL: gl.constexpr,
                 STAGES: gl.constexpr, num_warps: gl.constexpr, PINGPONG: gl.constexpr, O_SMEM: gl.constexpr,
                 SKIP: gl.constexpr, merge=None, SPLIT_K: gl.constexpr = False, Q_DOUBLE: gl.constexpr = False,
                 DEFER_STORE: gl.constexpr = False, PV_OVERLAP: gl.constexpr = False, PAIRED: gl.constexpr = True,
                 KV_HEADS=None, PACK: gl.constexpr = 0, LM: gl.constexpr = False, BALANCE: gl.constexpr = False,
                 TRACE: gl.constexpr = False, O_REG: gl.constexpr = 0, V_STAGE: gl.constexpr = False,
                 O_HALF: gl.constexpr = False, LIGHT_FIRST: gl.constexpr = False):
    """Consumer W of SPLIT: rows W * BLOCK_M .. (W + 1) * BLOCK_M of each SPLIT * BLOCK_M-row tile of this
    program's static schedule (the producer's: same units, same block counts, so ring positions and turns
    agree), in its own Q (and O) buffer. Turns: consumer W waits on named barrier 16 - SPLIT + W and signals
    the next one in the rotation. rt: the kernel's runtime arguments the consumers use (attn_fwd_sm90_ws).
    SPLIT_K (two consumers, merge: the hand-over buffers): both on the same BLOCK_M rows, each
    with alternate key blocks (_consume_tile_split_k), each from a sub-ring of STAGES slots of its own. One
    ring shared by both would be unsafe: a slot's fills alternate between them, and a consumer waiting for
    fill n of a slot while fill n - 1 (the other's) is still in flight sees the same barrier parity as
    "fill n landed" (a phase wait tells only the parity) and reads a slot that is not loaded. Session 8
    run 2: unspecified launch failures at grids of 2,048 programs. PACK (SPLIT = 2, session 18): each tile is a packed
    block of query heads (_pack_block; KV_HEADS: H_KV), this consumer's rows its slots from ROW0 / PACK. LM (three
    consumers, non-causal: L_MMA): merge is the [BLOCK_N, L_COLS] tile of ones the row sums multiply P by.
    BALANCE (SPLIT = 2, causal with SKIP, units of a heavy and a light tile): on a unit's second tile the consumers
    exchange row halves (consumer W takes half 1 - W; the producer loads each half's Q into the other's buffer), so
    that each consumer computes the lower half of one tile and the upper half of the other: with 64-key blocks the
    upper half has one more block per tile, which otherwise fell to consumer 1 on both (two blocks more per unit
    than consumer 0's, of 9-10 at 512 queries). The turns stay matched: on every tile both take n_first + 1 (n_first
    is the lower half's count whichever consumer has it). Public: the tile's index in its unit. O_REG: O is stored
    from registers through rt[18:22] (attn_fwd_sm90_ws O_REG: 1 or 2). V_STAGE: consumer 1 stages O in its last block's
    V slot where that block is its alone (_consume_tile). O_HALF (with V_STAGE; session 40): consumer 0's O goes to the
    one buffer of its own that rt's o_smem then is, stored as with DEFER_STORE (waited for before its next write), so
    consumer 0 releases Q after its last QK^T too."""
    (o_desc, LSE, q_smem, o_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v, qk_scale, BH,
     H, SEQ_Q, SEQ_K, CAUSAL_OFFSET) = rt[:18]
    if O_REG:
        o_ptrs = rt[18:22]
    else:
        o_ptrs = None
    TILE_M: gl.constexpr = BLOCK_M if SPLIT_K else SPLIT * BLOCK_M
    ROW0: gl.constexpr = 0 if SPLIT_K else W * BLOCK_M  # this consumer's first row in the tile
    TURN_ME: gl.constexpr = 16 - SPLIT + W
    TURN_OTHER: gl.constexpr = 16 - SPLIT + (W + 1) % SPLIT
    FIRST: gl.constexpr = W == 0
    LAST: gl.constexpr = W == SPLIT - 1
    q_all = q_smem  # Q_DOUBLE: tile i's Q is buffer i % 2's
    q_smem = q_smem.index(0 if SPLIT_K else W)
    if O_HALF:  # (V_STAGE) consumer 0: O in its buffer, stored as with DEFER_STORE; consumer 1: as V_STAGE says
        if W == 0:
            o_smem = o_smem.index(0)
        else:
            o_smem = q_smem
    else:
        o_smem = o_smem.index(0 if SPLIT_K else W)
    O_OWN: gl.constexpr = O_HALF and W == 0
    if LAST:  # the last warpgroup of the rotation lets warpgroup 0 issue first
        _pass_turn(TURN_OTHER, PINGPONG)
    c = 0
    i = 0
    for u in range(gl.program_id(0), _unit_count(SEQ_Q, BH, TILE_M, CAUSAL and PAIRED), gl.num_programs(0)):
        bh, n_tiles, mb, step = _unit_tiles(u, SEQ_Q, TILE_M, CAUSAL and PAIRED, LIGHT_FIRST)
        for t in range(n_tiles):
            m0 = (mb + t * step) * TILE_M
            n = _kv_blocks(m0, SEQ_K, CAUSAL_OFFSET, TILE_M, BLOCK_N, CAUSAL)
            n_own = n  # blocks this consumer computes, and the first consumer's count (SKIP: its own rows')
            n_first = n
            half = t ^ W if BALANCE else W  # this consumer's row half of the tile
            if SKIP:
                n_own = _kv_blocks(m0 + half * BLOCK_M, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, CAUSAL)
                n_first = _kv_blocks(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, CAUSAL)
            if SPLIT_K:  # alternate blocks: W, W + 2, ...
                n_own = (n - W + 1) // 2
                _consume_tile_split_k(o_desc, LSE, q_smem, o_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v,
                                      empty_k, empty_v, merge, W, i, c, bh // H, bh % H, bh, m0, n_own, qk_scale, SEQ_Q,
                                      SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, num_warps,
                                      O_SMEM, PV_OVERLAP)
            else:
                if Q_DOUBLE:  # tile i's Q in buffer i % 2, its (i // 2)-th fill
                    q_i, q_bar_i, q_empty_i, q_fill = q_all.index((i % 2) * SPLIT + W), q_bar.index(i % 2), \
                        q_empty.index(i % 2), i // 2
                else:
                    q_i, q_bar_i, q_empty_i, q_fill = q_smem, q_bar, q_empty, i
                if PACK:  # a packed tile (m0 = 0): its block of query heads, these rows its slots from ROW0 / PACK
                    m_rows = m0
                    pk = _pack_block(bh, H, KV_HEADS, o_desc.shape[2])
                else:
                    m_rows = m0 + half * BLOCK_M  # (ROW0 without BALANCE)
                    pk = None
                _consume_tile(o_desc, LSE, q_i, o_smem, k_ring, v_ring, q_bar_i, q_empty_i, ready_k, ready_v,
                              empty_k, empty_v, TURN_ME, TURN_OTHER, q_fill, c, bh // H, bh % H, bh, m_rows, n,
                              qk_scale, SEQ_Q, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL, STAGES,
                              num_warps, PINGPONG, O_SMEM or O_OWN, n_own, n_first, SKIP, DEFER_STORE or O_OWN,
                              PV_OVERLAP, PACK, pk,
                              ROW0, TILE_M, merge, LM,
                              tr=_trace_record(LSE, BH, SEQ_Q, W, i) if TRACE else None, o_ptrs=o_ptrs,
                              O_WIDE=O_REG == 2, V_STAGE=V_STAGE and W == 1)
            if SPLIT_K:  # this consumer's own blocks of the tile: its sub-ring position
                c += n_own
            else:
                c += n
            i += 1
    if FIRST:  # warpgroup 0 takes the last warpgroup's final signal, so every arrive is matched by a sync
        _take_turn(TURN_ME, PINGPONG)
    if SPLIT_K and W == 1:  # ... and consumer 1 takes consumer 0's last "hand-over read"
        if i > 0:
            _named_barrier(_BAR_SYNC_14)
    if DEFER_STORE or O_OWN:  # the last tile's O store has read the buffer before the CTA ends
        tma.store_wait(pendings=0)


@gluon.jit
def _split_kv_tile(SEQ_Q, SEQ_K, CAUSAL_OFFSET, BH, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr,
                   CAUSAL: gl.constexpr, CLUSTER: gl.constexpr = 0, PARTS: gl.constexpr = 2):
    """SPLIT_KV: (part, tile, bh, m0, key blocks of the tile) of this program: part p // U of tile p % U (U: the
    tiles, head-major, one per unit even when causal); CLUSTER (two parts): part p % 2 of tile p // 2, so a tile's
    programs are the two CTAs of one cluster; with PARTS > 2 (CL_TREE) part p % PARTS of tile p // PARTS, so parts 2k
    and 2k + 1 are one cluster. Public: shapes and the program id."""
    units = _unit_count(SEQ_Q, BH, BLOCK_M, False)
    if CLUSTER:
        unit = gl.program_id(0) // PARTS
        part = gl.program_id(0) % PARTS
    else:
        unit = gl.program_id(0) % units
        part = gl.program_id(0) // units
    bh, _n_tiles, mb, _step = _unit_tiles(unit, SEQ_Q, BLOCK_M, False)
    m0 = mb * BLOCK_M
    return part, unit, bh, m0, _kv_blocks(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, CAUSAL)


@gluon.jit
def _ws_producer_split_kv(rt, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr,
                          CAUSAL: gl.constexpr, PARTS: gl.constexpr, PACK: gl.constexpr = 0,
                          CLUSTER: gl.constexpr = 0, CLUSTER_N: gl.constexpr = 2, CL_PULL: gl.constexpr = False):
    """SPLIT_KV (one program per unit): the producer of this program's part of its tile (_split_kv_tile): Q once,
    then that part's key blocks (_split_kv_unit). CL_PULL: its warps arrive at the cluster barrier's first phase at
    their start and wait and arrive at its second and third at their end (they reach no other CTA's shared memory)."""
    if CL_PULL:
        _cl_one(_CLP_CARRIVE, 0, 0)
    (q_desc, k_desc, v_desc, q_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v, BH, H, H_KV,
     SEQ_Q, SEQ_K, CAUSAL_OFFSET) = rt
    part, _unit, bh, m0, n = _split_kv_tile(SEQ_Q, SEQ_K, CAUSAL_OFFSET, BH, BLOCK_M, BLOCK_N, CAUSAL, CLUSTER, PARTS)
    b = bh // H
    h_kv = (bh % H) // (H // H_KV)
    if PACK:  # the tile's block of query heads (public)
        _load_q(q_desc, q_smem, q_bar, 0, bh, m0, H, 1, True, BLOCK_M // PACK, SEQ_Q,
                _pack_block(bh, H, H_KV, q_desc.shape[2]))
    else:
        _load_q(q_desc, q_smem, q_bar, 0, bh, m0, H, 1, True)
    j_lo, n_own = _split_kv_unit(n, part, PARTS, CLUSTER,
                                 _cluster_split_even(SEQ_Q, m0, cluster_even(k_desc.block_type.shape[3], BLOCK_N)),
                                 CLUSTER_N)
    for j in range(n_own):
        s = j % STAGES
        phase = ((j // STAGES) & 1) ^ 1
        mbarrier.wait(empty_k.index(s), phase)
        mbarrier.expect(ready_k.index(s), k_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(k_desc, [b, (j_lo + j) * BLOCK_N, h_kv, 0], ready_k.index(s), k_ring.index(s))
        mbarrier.wait(empty_v.index(s), phase)
        mbarrier.expect(ready_v.index(s), v_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(v_desc, [b, (j_lo + j) * BLOCK_N, h_kv, 0], ready_v.index(s), v_ring.index(s))
    if CL_PULL:  # phases 2 and 3 of the cluster barrier: every thread of the cluster arrives at each
        _cl_one(_CLP_PRODUCER_END, 0, 0)


@gluon.jit
def _ws_consumer_split_kv(rt, kvs, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
                          CAUSAL: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr, O_SMEM: gl.constexpr,
                          PARTS: gl.constexpr, PV_OVERLAP: gl.constexpr = False, ROWS_MASKED: gl.constexpr = False,
                          PACK: gl.constexpr = 0, CLUSTER: gl.constexpr = 0, STAMP: gl.constexpr = False,
                          CLUSTER_N: gl.constexpr = 2, CL_PULL: gl.constexpr = False):
    """SPLIT_KV: the consumer of this program's part of its tile (_split_kv_tile)."""
    (o_desc, LSE, q_smem, o_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v, qk_scale, BH,
     H, SEQ_Q, SEQ_K, CAUSAL_OFFSET) = rt
    part, unit, bh, m0, n = _split_kv_tile(SEQ_Q, SEQ_K, CAUSAL_OFFSET, BH, BLOCK_M, BLOCK_N, CAUSAL, CLUSTER, PARTS)
    if PACK:  # the tile's block of query heads (public); kvs carries H_KV
        _consume_tile_split_kv(o_desc, LSE, q_smem.index(0), o_smem.index(0), k_ring, v_ring, q_bar, q_empty, ready_k,
                               ready_v, empty_k, empty_v, (kvs[0], kvs[1], kvs[2]), part, unit, 0, 0, bh // H, bh % H,
                               bh, m0, n, qk_scale, SEQ_Q, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL,
                               STAGES, num_warps, O_SMEM, PARTS, PV_OVERLAP, ROWS_MASKED, PACK,
                               _pack_block(bh, H, kvs[3], o_desc.shape[2]))
    else:
        _consume_tile_split_kv(o_desc, LSE, q_smem.index(0), o_smem.index(0), k_ring, v_ring, q_bar, q_empty, ready_k,
                               ready_v, empty_k, empty_v, kvs, part, unit, 0, 0, bh // H, bh % H, bh,
                               m0, n, qk_scale, SEQ_Q, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL, STAGES,
                               num_warps, O_SMEM, PARTS, PV_OVERLAP, ROWS_MASKED, PACK, None, CLUSTER, STAMP, CLUSTER_N,
                               CL_PULL)


@gluon.jit(do_not_specialize=SHAPE_ARGS + O_STRIDE_ARGS)
def attn_fwd_sm90_ws(q_desc, k_desc, v_desc, o_desc, LSE, qk_scale,
                     BH, H, H_KV, SEQ_Q, SEQ_K, CAUSAL_OFFSET,
                     BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
                     CAUSAL: gl.constexpr, STAGES: gl.constexpr, SPLIT: gl.constexpr,
                     CONSUMER_REGS: gl.constexpr, PINGPONG: gl.constexpr, O_SMEM: gl.constexpr,
                     num_warps: gl.constexpr, SKIP_MASKED: gl.constexpr = False, SPLIT_K: gl.constexpr = False,
                     Q_DOUBLE: gl.constexpr = False, DEFER_STORE: gl.constexpr = False, WS=None, FLAGS=None,
                     NONCE=None, SPLIT_KV: gl.constexpr = 0, PV_OVERLAP: gl.constexpr = False,
                     PAIRED: gl.constexpr = True, SPLIT_KV_ROWS: gl.constexpr = True, PACK: gl.constexpr = 0,
                     BALANCE: gl.constexpr = False, TRACE: gl.constexpr = False, O_REG: gl.constexpr = 0,
                     O_PTR=None, O_SB=None, O_SS=None, O_SH=None, V_STAGE: gl.constexpr = False,
                     O_HALF: gl.constexpr = False, LIGHT_FIRST: gl.constexpr = False, CLUSTER: gl.constexpr = 0,
                     STAMPS=None, STAMP: gl.constexpr = False, CLUSTER_N: gl.constexpr = 2,
                     CL_PULL: gl.constexpr = False):
    """Warp-specialised, over a static schedule: program p takes work units p, p + P, ... (P = the grid;
    persistent when P is the number of SMs, one unit per program when P is the number of units). A 1-warp
    TMA producer feeds a ring of K/V slots. SPLIT=1: one consumer partition (num_warps warps) owns the
    BLOCK_M rows. SPLIT=2: two consumer partitions of one warpgroup each own BLOCK_M / 2 rows and share
    the ring (each slot is released by both), so one's softmax can run beside the other's GEMMs; the
    second runs with CONSUMER_REGS registers. Both visit all of the tile's blocks (the second half's extra
    causal blocks are masked for the first), so the schedule stays that of the tile. SPLIT=3 (192-row
    tiles; shipped at D=64 without turns, variants.SM90_GLUON_LONG): three such partitions; the first
    runs at the kernel's 128 registers, the other two with CONSUMER_REGS (160). PINGPONG (SPLIT >= 2):
    the consumers take turns issuing their GEMMs on hardware named barriers, as FlashAttention-3 does.
    O_SMEM: O is staged in a buffer of its own, so the next tile's Q loads during this tile's last PV GEMM
    and epilogue; otherwise in Q's tile (less shared memory). SKIP_MASKED (causal): each consumer computes
    only its own blocks of a diagonal tile (_consume_tile). SPLIT_K (SPLIT=2, BLOCK_M-row tiles; few-program
    grids with long keys, variants.SM90_FEW_PROGRAMS_LONG): both consumers on the tile's rows, alternate
    key blocks, merged through shared memory (_consume_tile_split_k). Q_DOUBLE (with O_SMEM, not SPLIT_K): two
    Q buffers, the next tile's loaded during this one (_ws_producer). DEFER_STORE (with O_SMEM): a tile's O
    store is waited for before the next tile writes its buffer (_epilogue). SPLIT_KV = 2, 4, 8 or 16 (SPLIT=1, one unit
    per program, causal tiles unpaired; few-program grids): that many programs per tile, each with a part of its
    key blocks, combined through the workspace WS (fp32 partial states, secret) by whichever arrives second at the
    tile's flag in FLAGS (int64, public), where NONCE (int64, public, fresh per call: split_kv_nonce) marks the
    first arrival: _consume_tile_split_kv; SPLIT_KV_ROWS (default): the meetings store and load only the tile's
    rows below SEQ_Q (a public count; packed decode tiles fill 1-32 of 64). PV_OVERLAP: the softmax runs while the
    previous block's PV GEMM is in flight (_ov_step). PAIRED (causal, split keys): the work units pair a heavy and a
    light tile (_unit_count); False: one tile each (grids of at most one program per SM, where pairs would leave half
    of the SMs idle; session 13). PACK (SPLIT_KV; sessions 16-17): grouped-query tiles of a block of query heads that
    share a key/value head, in slots of PACK rows, BLOCK_M // PACK // (the block's heads) per head (_pack_rows); H
    counts the blocks, H / H_KV per key/value head (_pack_block: a group spread evenly over them), and Q / O descriptors
    have PACK-row blocks (one TMA copy per slot). BALANCE (SPLIT = 2, causal, SKIP_MASKED, paired units; session 37):
    the consumers exchange row halves on each unit's second tile (_ws_consumer). TRACE (experiments only, never
    shipped): clock stamps past the LSE rows (_trace_record; two consumers, no split keys or packing). O_REG (two
    consumers, not PACK / SPLIT_K / O_SMEM; session 39): O is stored from the consumers' registers through O_PTR and its
    batch / row / head strides O_SB, O_SS, O_SH (elements) instead of staged in Q's tile, so the next tile's Q loads
    once this tile's last QK^T has completed (_epilogue): O_REG = 2 in 16-byte stores through a little shared memory
    (a layout conversion within each warp), 1 in 4-byte ones from the accumulator's layout (no shared memory).
    O_HALF (with V_STAGE; session 40): consumer 0's O in a buffer of its own (one consumer's rows: 32 KB at D=256 fits
    beside Q and two 64-key stages), so Q is released once both consumers' last QK^T have completed. LIGHT_FIRST (causal,
    paired units, not BALANCE; session 40): each unit's light tile runs first (_unit_tiles)."""
    gl.static_assert(not O_REG or (SPLIT == 2 and not PACK and not SPLIT_K and not O_SMEM and not SPLIT_KV),
                     "O from registers: two consumers, no packed tiles, split keys, O buffer or split KV")
    gl.static_assert(not V_STAGE or (SPLIT == 2 and SKIP_MASKED and not O_SMEM and not O_REG and not BALANCE
                                     and not PACK and not SPLIT_K and not Q_DOUBLE and not DEFER_STORE
                                     and BLOCK_N == BLOCK_M // 2),
                     "O in a V slot: two consumers with SKIP_MASKED, O in Q's tile otherwise, a slot of O's shape")
    gl.static_assert(not O_HALF or V_STAGE, "consumer 0's O buffer: with V_STAGE")
    gl.static_assert(not LIGHT_FIRST or (SPLIT == 2 and not BALANCE), "light tile first: two consumers, not BALANCE")
    gl.static_assert(not TRACE or (SPLIT == 2 and not SPLIT_K and not PACK and not SPLIT_KV),
                     "the timeline build: two consumers, no split keys or packed tiles")
    gl.static_assert(not BALANCE or (SPLIT == 2 and CAUSAL and SKIP_MASKED and PAIRED and not SPLIT_K and not PACK
                                     and not SPLIT_KV), "balanced halves: two consumers, causal paired tiles, SKIP")
    gl.static_assert(SPLIT >= 2 or not PINGPONG, "ping-pong needs two or three consumer warpgroups")
    gl.static_assert(SPLIT <= 3, "one, two or three consumer warpgroups")
    gl.static_assert(not CLUSTER or (SPLIT_KV >= 2 and not PACK), "clusters of two: SPLIT_KV >= 2, not packed")
    gl.static_assert(CLUSTER_N == 2 or (CLUSTER and (CLUSTER_N == 4 or CLUSTER_N == 8 or CLUSTER_N == 16)
                                        and SPLIT_KV >= CLUSTER_N),
                     "clusters of four / eight / sixteen (CLUSTER_N): CLUSTER with SPLIT_KV >= CLUSTER_N")
    gl.static_assert(not CL_PULL or (CLUSTER_N >= 4 and (SPLIT_KV == CLUSTER_N or SPLIT_KV == 2 * CLUSTER_N
                                                         or SPLIT_KV == 4 * CLUSTER_N)
                                     and BLOCK_M == 64 and num_warps == 4 and (HEAD_DIM == 64 or HEAD_DIM == 128)),
                     "the one-exchange meeting: 1, 2 or 4 clusters of 4 / 8 / 16 a tile, 64-row tiles, D = 64 / 128")
    gl.static_assert(not SPLIT_K or (SPLIT == 2 and not PINGPONG and not SKIP_MASKED),
                     "split keys: two consumers on one tile, no turns")
    gl.static_assert(not Q_DOUBLE or (O_SMEM and not SPLIT_K), "two Q buffers: O in a buffer of its own, no split keys")
    gl.static_assert(not DEFER_STORE or (O_SMEM and not SPLIT_K), "deferred O store: O in a buffer of its own")
    gl.static_assert(not SPLIT_KV or (SPLIT == 1 and not Q_DOUBLE and not DEFER_STORE),
                     "split KV: one consumer, one Q buffer, O stored at once")
    gl.static_assert(PAIRED or SPLIT_K, "one tile per causal work unit: split keys only")
    gl.static_assert(not PACK or SPLIT_KV > 0 or (SPLIT == 2 and not SPLIT_K and not Q_DOUBLE and not SKIP_MASKED),
                     "packed grouped-query tiles: split KV builds, or two consumers without split keys, two Q buffers "
                     "or SKIP_MASKED")
    dtype: gl.constexpr = q_desc.dtype
    ROWS: gl.constexpr = BLOCK_M if SPLIT_K else BLOCK_M // SPLIT
    Q_BUFS: gl.constexpr = 1 if SPLIT_K else SPLIT
    q_smem = gl.allocate_shared_memory(dtype, [(2 if Q_DOUBLE else 1) * Q_BUFS, 1, ROWS, 1, HEAD_DIM], q_desc.layout)
    if O_SMEM:
        o_smem = gl.allocate_shared_memory(dtype, [Q_BUFS, 1, ROWS, 1, HEAD_DIM], o_desc.layout)
    elif O_HALF:  # (V_STAGE) consumer 0's O in a buffer of its own
        o_smem = gl.allocate_shared_memory(dtype, [1, 1, ROWS, 1, HEAD_DIM], o_desc.layout)
    else:
        o_smem = q_smem
    RING: gl.constexpr = 2 * STAGES if SPLIT_K else STAGES  # split keys: a sub-ring per consumer
    k_ring = gl.allocate_shared_memory(dtype, [RING, 1, BLOCK_N, 1, HEAD_DIM], k_desc.layout)
    v_ring = gl.allocate_shared_memory(dtype, [RING, 1, BLOCK_N, 1, HEAD_DIM], v_desc.layout)
    if Q_DOUBLE:
        q_bar = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
        q_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    else:
        q_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
        q_empty = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    # One allocation per barrier role. Triton's membar pass syncs the warpgroup (bar.sync) before a barrier
    # operation when an earlier one touched the same allocation (it counts a wait as a write), so barriers
    # sharing an allocation cost a bar.sync per wait and per arrive. Apart, a consumer step keeps the one
    # before its waits and the one before each one-thread arrive (K, then V).
    ready_k = gl.allocate_shared_memory(gl.int64, [RING, 1], mbarrier.MBarrierLayout())
    ready_v = gl.allocate_shared_memory(gl.int64, [RING, 1], mbarrier.MBarrierLayout())
    empty_k = gl.allocate_shared_memory(gl.int64, [RING, 1], mbarrier.MBarrierLayout())
    empty_v = gl.allocate_shared_memory(gl.int64, [RING, 1], mbarrier.MBarrierLayout())
    if Q_DOUBLE:
        for qb in gl.static_range(2):
            mbarrier.init(q_bar.index(qb), count=1)
            mbarrier.init(q_empty.index(qb), count=SPLIT)
    else:
        mbarrier.init(q_bar, count=1)
        mbarrier.init(q_empty, count=SPLIT)
    for s in gl.static_range(RING):
        mbarrier.init(ready_k.index(s), count=1)
        mbarrier.init(ready_v.index(s), count=1)
        mbarrier.init(empty_k.index(s), count=1 if SPLIT_K else SPLIT)  # split keys: one reader per slot
        mbarrier.init(empty_v.index(s), count=1 if SPLIT_K else SPLIT)
    # The partitions' runtime arguments go in one tuple each (rt, prt); their constexprs stay inline in the
    # lists (in a tuple variable Gluon would turn them into tensors).
    rt = (o_desc, LSE, q_smem, o_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v, qk_scale,
          BH, H, SEQ_Q, SEQ_K, CAUSAL_OFFSET)
    prt = (q_desc, k_desc, v_desc, q_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v, BH, H,
           H_KV, SEQ_Q, SEQ_K, CAUSAL_OFFSET)
    if SPLIT_K:  # few-program grids (docs/perf-log.md, session 7): two consumers split one tile's keys
        acc_smem = gl.allocate_shared_memory(gl.float32, [ROWS, HEAD_DIM],
                                             gl.SwizzledSharedLayout(1, 1, 1, order=[1, 0]))
        ml_smem = gl.allocate_shared_memory(gl.float32, [2, ROWS], gl.SwizzledSharedLayout(1, 1, 1, order=[0]))
        merge = (acc_smem, ml_smem)
        gl.warp_specialize([(_ws_consumer, (rt, 0, 2, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, False, O_SMEM,
                                            False, merge, True, False, False, PV_OVERLAP, PAIRED)),
                            (_ws_consumer, (rt, 1, 2, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, False, O_SMEM,
                                            False, merge, True, False, False, PV_OVERLAP, PAIRED)),
                            (_ws_producer, (prt, BLOCK_M, BLOCK_N, STAGES, 1, CAUSAL, True, False, PAIRED))],
                           [4, 1], [CONSUMER_REGS, 24])
    elif SPLIT == 3:  # D=64 (docs/perf-log.md, session 6)
        LM: gl.constexpr = L_MMA and not CAUSAL  # the row sums on the tensor cores (_ov_step)
        if LM:  # ones, K-major as the K tiles (an [BLOCK_N, 8] N-major unswizzled tile gave wrong sums; session 25)
            ones = gl.allocate_shared_memory(dtype, [L_COLS, BLOCK_N], gl.NVMMASharedLayout(128, 16, 2))
            ones.store(gl.full([L_COLS, BLOCK_N], 1.0, dtype,
                               gl.BlockedLayout([1, 8], [1, 32], [num_warps, 1], [1, 0])))
            fence_async_shared()  # before the GEMMs (async proxy) read it
            ones = ones.permute((1, 0))  # [BLOCK_N, L_COLS]: the GEMM's B
        else:
            ones = q_smem  # never read (LM off); the partitions' capture takes no None
        gl.warp_specialize([(_ws_consumer, (rt, 0, 3, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, PINGPONG, O_SMEM,
                                            SKIP_MASKED, ones, False, Q_DOUBLE, DEFER_STORE, PV_OVERLAP, True, None, 0,
                                            LM)),
                            (_ws_consumer, (rt, 1, 3, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, PINGPONG, O_SMEM,
                                            SKIP_MASKED, ones, False, Q_DOUBLE, DEFER_STORE, PV_OVERLAP, True, None, 0,
                                            LM)),
                            (_ws_consumer, (rt, 2, 3, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, PINGPONG, O_SMEM,
                                            SKIP_MASKED, ones, False, Q_DOUBLE, DEFER_STORE, PV_OVERLAP, True, None, 0,
                                            LM)),
                            (_ws_producer, (prt, BLOCK_M, BLOCK_N, STAGES, SPLIT, CAUSAL, False, Q_DOUBLE))],
                           [4, 4, 1], [CONSUMER_REGS, CONSUMER_REGS, 24])
    elif SPLIT == 2 and PACK:  # packed tiles of two consumers (session 18): they take H_KV for _pack_block (a None in
        # its place fails the partitions' capture, so the other two-consumer builds keep the call below as it was)
        gl.warp_specialize([(_ws_consumer, (rt, 0, 2, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, PINGPONG, O_SMEM,
                                            False, None, False, False, DEFER_STORE, PV_OVERLAP, True, H_KV, PACK)),
                            (_ws_consumer, (rt, 1, 2, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, PINGPONG, O_SMEM,
                                            False, None, False, False, DEFER_STORE, PV_OVERLAP, True, H_KV, PACK)),
                            (_ws_producer, (prt, BLOCK_M, BLOCK_N, STAGES, SPLIT, CAUSAL, False, False, True, PACK))],
                           [4, 1], [CONSUMER_REGS, 24])
    elif SPLIT == 2:
        if TRACE:  # the producer's stamps go past the LSE rows too
            prt = prt + (LSE,)
        if O_REG:  # O's pointer and strides for the consumers' stores
            rt = rt + (O_PTR, O_SB, O_SS, O_SH)
        gl.warp_specialize([(_ws_consumer, (rt, 0, 2, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, PINGPONG, O_SMEM,
                                            SKIP_MASKED, None, False, Q_DOUBLE, DEFER_STORE, PV_OVERLAP, True, None,
                                            0, False, BALANCE, TRACE, O_REG, V_STAGE, O_HALF, LIGHT_FIRST)),
                            (_ws_consumer, (rt, 1, 2, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, PINGPONG, O_SMEM,
                                            SKIP_MASKED, None, False, Q_DOUBLE, DEFER_STORE, PV_OVERLAP, True, None,
                                            0, False, BALANCE, TRACE, O_REG, V_STAGE, O_HALF, LIGHT_FIRST)),
                            (_ws_producer, (prt, BLOCK_M, BLOCK_N, STAGES, SPLIT, CAUSAL, False, Q_DOUBLE, True, 0,
                                            BALANCE, TRACE, LIGHT_FIRST))],
                           [4, 1], [CONSUMER_REGS, 24])
    elif SPLIT_KV:
        kvs = (WS, FLAGS, NONCE, H_KV) if PACK else (WS, FLAGS, NONCE, STAMPS, O_PTR, O_SB, O_SS, O_SH) if CL_PULL \
            else (WS, FLAGS, NONCE, STAMPS) if STAMP else (WS, FLAGS, NONCE)
        # CL_PULL: four producer warps, so that every warp of the kernel arrives at the cluster barrier
        PRODUCER_WARPS: gl.constexpr = 4 if CL_PULL else 1
        gl.warp_specialize([(_ws_consumer_split_kv, (rt, kvs, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, num_warps,
                                                     O_SMEM, SPLIT_KV, PV_OVERLAP, SPLIT_KV_ROWS, PACK, CLUSTER,
                                                     STAMP, CLUSTER_N, CL_PULL)),
                            (_ws_producer_split_kv, (prt, BLOCK_M, BLOCK_N, STAGES, CAUSAL, SPLIT_KV, PACK, CLUSTER,
                                                     CLUSTER_N, CL_PULL))],
                           [PRODUCER_WARPS], [24])
    else:
        gl.warp_specialize([(_ws_consumer, (rt, 0, 1, BLOCK_M, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, num_warps, False,
                                            O_SMEM, False, None, False, Q_DOUBLE, DEFER_STORE, PV_OVERLAP)),
                            (_ws_producer, (prt, BLOCK_M, BLOCK_N, STAGES, SPLIT, CAUSAL, False, Q_DOUBLE))], [1], [24])


# ---- variable-length sequences (flash_attn_varlen_func) on the Hopper kernel ----------------------------------------
# q, k, v and O are packed along the rows (TOTAL, H, D), sequence b owning rows [CU[b], CU[b + 1]). Their TMA
# descriptors are "sliding" ones (varlen_descriptor): 4-D views [S, R, H, D] whose first two dimensions both step one
# row (R: the box's rows). A box taken at [s, r] reads box row p from memory row s + r + p, in bounds while r + p < R:
# so a box of R rows from memory row `start` of which `valid` lie inside its sequence is taken at [start + valid - R,
# R - valid] (_slide_in), and TMA zero-fills its rows past the sequence's end (a sequence never reads the next one's
# keys or values: a NaN or inf there cannot reach it through P @ V, whose masked P is 0). Every address TMA computes is
# at or past the base, and the base must lie in mapped memory (session 30: a base before a tensor's allocation faulted
# on the device), so q, k and v keep their own base: a box whose sequence ends within the tensor's first R rows (start +
# valid < R) is taken at [0, start] instead and reads the rows after its sequence up to row R. For Q and K that is
# harmless (those rows' scores are masked by a select, their query rows never stored); V's block is fixed up in shared
# memory (_zero_rows_from). O's descriptor sits R rows before the output, which the API allocates with R rows in front
# (varlen_out_descriptor), so every store box is taken the first way (_slide) and clips at its sequence's end. Every
# coordinate is a function of the offsets, which are public, as the dense kernels' shapes are.


@gluon.jit
def _slide(lo, row, count, R: gl.constexpr):
    """[s, r] of the box of R rows from row `row` of the sequence of `count` rows from `lo`, on a sliding descriptor
    whose base lies R rows before the tensor's (O): its rows past the sequence are out of bounds. Public: offsets and
    tile indices."""
    valid = gl.minimum(gl.maximum(count - row, 0), R)
    return lo + row + valid, R - valid


@gluon.jit
def _slide_in(lo, row, count, RD, R: gl.constexpr):
    """[s, r] of the same box on a sliding descriptor based at its tensor (q, k, v: RD = min(R, the tensor's rows), its
    second dimension): rows past the sequence out of bounds, except for a box that ends within the tensor's first RD
    rows (taken at [0, start]: it reads on to row RD - 1). Public: offsets, tile indices, shapes."""
    valid = gl.minimum(gl.maximum(count - row, 0), R)
    start = lo + row
    s = gl.maximum(start + valid - RD, 0)
    return s, start - s


@gluon.jit
def _zero_rows_from(tile, valid, ROWS: gl.constexpr, HEAD_DIM: gl.constexpr, num_warps: gl.constexpr):
    """Rows `valid` .. ROWS - 1 of a [ROWS, HEAD_DIM] shared tile set to zero, 16 rows at a time (a select: the same
    instructions whatever the data), then fenced for the GEMMs (async proxy). Public: valid."""
    layout: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [num_warps, 1], [1, 0])
    for r in gl.static_range(0, ROWS, 16):
        chunk = tile.slice(r, 16, dim=0)
        x = chunk.load(layout)
        rows = r + gl.arange(0, 16, layout=gl.SliceLayout(1, layout))
        chunk.store(gl.where((rows < valid)[:, None], x, gl.zeros_like(x)))
    fence_async_shared()


@gluon.jit
def _varlen_tile(CU_Q, CU_K, H, TOTAL_Q, TOTAL_K, K_STRIDE, TILE_M: gl.constexpr, CAUSAL: gl.constexpr):
    """(head, first query row, queries, first key row, keys, tile's first row, whether the tile exists) of program
    (b * H + h, t): query tile t of sequence b (causal: the sequence's heaviest tiles first, as the portable varlen
    kernel orders them). The offsets are clamped to the tensors (offsets out of range or order give empty or cut
    sequences, never an access outside them). K_STRIDE 1: CU_K holds offsets as CU_Q does; 2: a (start, end) row pair
    per sequence (flash_attn_with_kvcache's cache rows). Public: the offsets are public loads (variants), the rest
    program ids and shapes."""
    pid = gl.program_id(0)
    b = pid // H
    q_lo = gl.minimum(gl.maximum(gl.load(CU_Q + b), 0), TOTAL_Q)
    q_hi = gl.minimum(gl.maximum(gl.load(CU_Q + b + 1), q_lo), TOTAL_Q)
    k_lo = gl.minimum(gl.maximum(gl.load(CU_K + b * K_STRIDE), 0), TOTAL_K)
    k_hi = gl.minimum(gl.maximum(gl.load(CU_K + b * K_STRIDE + 1), k_lo), TOTAL_K)
    seq_q = q_hi - q_lo
    n_tiles = (seq_q + TILE_M - 1) // TILE_M
    t = gl.program_id(1)
    if CAUSAL:
        mt = gl.minimum(n_tiles, gl.num_programs(1)) - 1 - t
    else:
        mt = t
    return pid % H, q_lo, seq_q, k_lo, k_hi - k_lo, mt * TILE_M, t < n_tiles


@gluon.jit
def _window_tile(r0, r1, seq_k, shift, WIN_LEFT, WIN_RIGHT, BLOCK_N: gl.constexpr):
    """(first key block, blocks) that query rows r0 .. r1 of a sequence visit under a local window (query i sees key j
    when i + shift - WIN_LEFT <= j <= i + shift + WIN_RIGHT and j < seq_k; an unbounded side is WINDOW_UNBOUNDED, as
    triton_fwd's window_bounds takes it): at least one block, so producer and consumers agree on every ring position
    (a tile with no visible key writes O = 0, LSE = -inf). Public: offsets, the window, tile indices."""
    lo = gl.maximum(r0 + shift - WIN_LEFT, 0) // BLOCK_N
    hi = gl.minimum(seq_k, gl.maximum(r1 + shift + WIN_RIGHT + 1, 0))
    return lo, gl.maximum((hi - lo * BLOCK_N + BLOCK_N - 1) // BLOCK_N, 1)


@gluon.jit
def _window_counts(r0, r1, lo, n, seq_k, shift, WIN_LEFT, WIN_RIGHT, BLOCK_N: gl.constexpr):
    """(n_left, n_full) of rows r0 .. r1 over a tile's n key blocks from block lo (_window_tile): blocks 0 ..
    n_left - 1 need the mask of the window's left edge, blocks n_left .. n_full - 1 are visible in full to every one
    of these rows, the rest need the mask of its right edge or of the sequence's end. Public, as _window_tile."""
    f0 = (gl.maximum(r1 + shift - WIN_LEFT, 0) + BLOCK_N - 1) // BLOCK_N  # blocks from here: inside every left edge
    f1 = gl.maximum(gl.minimum(seq_k, r0 + shift + WIN_RIGHT + 1), 0) // BLOCK_N  # blocks below: inside every right
    n_left = gl.minimum(gl.maximum(f0 - lo, 0), n)
    return n_left, gl.minimum(gl.maximum(f1 - lo, n_left), n)


@gluon.jit
def _paged_blocks(k_desc, v_desc, k_ring, v_ring, ready_k, ready_v, empty_k, empty_v, fix_bar, h_kv, n, seq_k, bt_row,
                  j0, PAGE, NUM_PAGES, BT_COLS, TOTAL_K, BLOCK_N: gl.constexpr, STAGES: gl.constexpr):
    """The producer's key blocks j0 .. j0 + n - 1 of a sequence in a paged cache (PAGE % BLOCK_N == 0: each block lies
    in one page; j0 > 0 under a local window, _window_tile; seq_k: the keys from block j0 on), into ring slots 0 ..
    n - 1: block b's page is entry b * BLOCK_N // PAGE of the sequence's block-table row bt_row (a public load, issued
    a block ahead; the column clamped to the row, the page to the cache, as the portable kernel's), its rows from that
    page's row b * BLOCK_N % PAGE, on the sliding descriptors (_slide_in: rows past the sequence's end arrive as
    zeros). A block whose box ends within the cache's first rows (on page 0, the sequence's last block, fewer than BLOCK_N keys) reads
    on into stale rows of its page: its V lands on fix_bar instead, this warp zeroes the rows past the sequence
    (_zero_rows_one_warp) and then completes the slot's ready barrier by a plain arrive; K's stale rows only reach
    scores the mask replaces. Public: offsets, the block table, shapes."""
    RD = gl.minimum(TOTAL_K, BLOCK_N)
    fixes = 0
    entry = gl.load(bt_row + gl.minimum(j0 * BLOCK_N // PAGE, BT_COLS - 1))
    for j in range(n):
        s = j % STAGES
        phase = ((j // STAGES) & 1) ^ 1
        page = gl.minimum(gl.maximum(entry, 0), NUM_PAGES - 1)
        # the next block's entry, loaded a block ahead (its latency under this block's waits); past the last block the
        # row's last column, read and not used
        entry = gl.load(bt_row + gl.minimum((j0 + j + 1) * BLOCK_N // PAGE, BT_COLS - 1))
        start = page * PAGE + ((j0 + j) * BLOCK_N) % PAGE
        valid = gl.minimum(gl.maximum(seq_k - j * BLOCK_N, 0), BLOCK_N)
        s_row, r_row = _slide_in(start, 0, valid, RD, BLOCK_N)
        mbarrier.wait(empty_k.index(s), phase)
        mbarrier.expect(ready_k.index(s), k_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(k_desc, [s_row, r_row, h_kv, 0], ready_k.index(s), k_ring.index(s))
        mbarrier.wait(empty_v.index(s), phase)
        if start + valid < RD:  # the box reads on past the sequence: V fixed up here before the consumers see it
            mbarrier.expect(fix_bar, v_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(v_desc, [s_row, r_row, h_kv, 0], fix_bar, v_ring.index(s))
            mbarrier.wait(fix_bar, fixes & 1)
            _zero_rows_one_warp(v_ring.index(s).reshape([BLOCK_N, v_desc.block_type.shape[3]]), valid, BLOCK_N,
                                v_desc.block_type.shape[3])
            mbarrier.arrive(ready_v.index(s), count=1)
            fixes += 1
        else:
            mbarrier.expect(ready_v.index(s), v_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(v_desc, [s_row, r_row, h_kv, 0], ready_v.index(s), v_ring.index(s))


@gluon.jit
def _zero_rows_one_warp(tile, valid, ROWS: gl.constexpr, HEAD_DIM: gl.constexpr):
    """Rows valid .. ROWS - 1 of a [ROWS, HEAD_DIM] shared tile set to zero by one warp, in [8, 64] pieces (a swizzle
    atom's rows, 64 columns: 16 values a thread, for the producer's few registers) under branches on the public
    `valid`: pieces wholly past it get zero stores, those it cuts a select of their rows (the same instructions
    whatever the data); then fenced for the GEMMs (async proxy)."""
    layout: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [1, 1], [1, 0])
    zero = gl.zeros([8, 64], tile.dtype, layout)
    rows = gl.arange(0, 8, layout=gl.SliceLayout(1, layout))
    for r in gl.static_range(0, ROWS, 8):
        for c in gl.static_range(0, HEAD_DIM, 64):
            piece = tile.slice(r, 8, dim=0).slice(c, 64, dim=1)
            if r >= valid:
                piece.store(zero)
            elif r + 8 > valid:
                x = piece.load(layout)
                piece.store(gl.where((r + rows < valid)[:, None], x, zero))
    fence_async_shared()


@gluon.jit
def _ws_producer_varlen(rt, TILE_M: gl.constexpr, BLOCK_N: gl.constexpr, STAGES: gl.constexpr, CAUSAL: gl.constexpr):
    """One warp: the program's tile (if it has one): Q in two row pieces, one per consumer, then its key blocks into
    the ring (under a local window, WIN_LEFT not None: those of _window_tile), each load on the sliding descriptors
    (_slide_in: rows past a sequence's end arrive as zeros, but in the tensor's first rows)."""
    (q_desc, k_desc, v_desc, CU_Q, CU_K, q_smem, k_ring, v_ring, q_bar, ready_k, ready_v, empty_k, empty_v, H, H_KV,
     TOTAL_Q, TOTAL_K, K_STRIDE, WIN_LEFT, WIN_RIGHT, BT, stride_bt, PAGE, NUM_PAGES, BT_COLS, fix_bar) = rt
    h, q_lo, seq_q, k_lo, seq_k, m0, has_tile = _varlen_tile(CU_Q, CU_K, H, TOTAL_Q, TOTAL_K, K_STRIDE, TILE_M,
                                                              CAUSAL)
    if BT is not None:  # a paged cache: the sequence's keys are rows of its pages (at most BT_COLS of them)
        seq_k = gl.minimum(seq_k, BT_COLS * PAGE)
    if has_tile:
        h_kv = h // (H // H_KV)
        ROWS: gl.constexpr = TILE_M // 2
        mbarrier.expect(q_bar, 2 * q_desc.block_type.nbytes)
        for w in gl.static_range(2):
            s_row, r_row = _slide_in(q_lo, m0 + w * ROWS, seq_q, gl.minimum(TOTAL_Q, ROWS), ROWS)
            tma.async_copy_global_to_shared(q_desc, [s_row, r_row, h, 0], q_bar, q_smem.index(w))
        if WIN_LEFT is None:
            n = _kv_blocks(m0, seq_k, seq_k - seq_q, TILE_M, BLOCK_N, CAUSAL)
            k0 = k_lo
            lo = 0
        else:
            lo, n = _window_tile(m0, gl.minimum(m0 + TILE_M, seq_q) - 1, seq_k, seq_k - seq_q, WIN_LEFT, WIN_RIGHT,
                                 BLOCK_N)
            k0 = k_lo + lo * BLOCK_N
            seq_k = seq_k - lo * BLOCK_N  # the keys from block lo
        if BT is None:
            for j in range(n):
                s = j % STAGES
                phase = ((j // STAGES) & 1) ^ 1
                s_row, r_row = _slide_in(k0, j * BLOCK_N, seq_k, gl.minimum(TOTAL_K, BLOCK_N), BLOCK_N)
                mbarrier.wait(empty_k.index(s), phase)
                mbarrier.expect(ready_k.index(s), k_desc.block_type.nbytes)
                tma.async_copy_global_to_shared(k_desc, [s_row, r_row, h_kv, 0], ready_k.index(s), k_ring.index(s))
                mbarrier.wait(empty_v.index(s), phase)
                mbarrier.expect(ready_v.index(s), v_desc.block_type.nbytes)
                tma.async_copy_global_to_shared(v_desc, [s_row, r_row, h_kv, 0], ready_v.index(s), v_ring.index(s))
        else:
            _paged_blocks(k_desc, v_desc, k_ring, v_ring, ready_k, ready_v, empty_k, empty_v, fix_bar, h_kv, n, seq_k,
                          BT + (gl.program_id(0) // H).to(gl.int64) * stride_bt, lo, PAGE, NUM_PAGES, BT_COLS,
                          TOTAL_K, BLOCK_N, STAGES)


@gluon.jit
def _ws_consumer_varlen(rt, W: gl.constexpr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
                        CAUSAL: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr, PINGPONG: gl.constexpr,
                        SKIP: gl.constexpr, PV_OVERLAP: gl.constexpr):
    """Consumer W of two: rows W * BLOCK_M .. (W + 1) * BLOCK_M of the program's tile (_consume_tile, O staged in its Q
    buffer), the sequence's mask bottom-right aligned (flash-attn's: offset keys - queries). Where V's block 0 was read
    with rows past its sequence (a sequence ending within k's first rows: _slide_in), consumer 0 zeroes those rows in
    shared memory before either consumer's first GEMM reads them (named barrier 12). The program of the last
    tile index (axis 1) also writes NaN into the sequence's rows past the grid (a sequence longer than max_seqlen_q: a
    caller's error), as the portable varlen kernel does. WIN_LEFT not None (LOCAL): the tile's key blocks are those of
    _window_tile, masked where _window_counts says for this consumer's rows; CAP_IN not None (SOFTCAP): the scores are
    soft-capped (_softmax_block)."""
    (o_desc, LSE, CU_Q, CU_K, q_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v, qk_scale, H,
     TOTAL_Q, TOTAL_K, K_STRIDE, WIN_LEFT, WIN_RIGHT, CAP_IN, PAGE, BT_COLS) = rt
    TILE_M: gl.constexpr = 2 * BLOCK_M
    ROW0: gl.constexpr = W * BLOCK_M
    TURN_ME: gl.constexpr = 14 + W
    TURN_OTHER: gl.constexpr = 14 + (W + 1) % 2
    q_smem = q_smem.index(W)
    if W == 1:  # the last warpgroup of the rotation lets warpgroup 0 issue first
        _pass_turn(TURN_OTHER, PINGPONG)
    h, q_lo, seq_q, k_lo, seq_k, m0, has_tile = _varlen_tile(CU_Q, CU_K, H, TOTAL_Q, TOTAL_K, K_STRIDE, TILE_M,
                                                              CAUSAL)
    if PAGE is not None:  # a paged cache (_paged_blocks): the producer fixes V up where needed
        seq_k = gl.minimum(seq_k, BT_COLS * PAGE)
    if has_tile:
        shift = seq_k - seq_q
        if WIN_LEFT is None:
            first_block = 0
            wb = None
            win = None
        else:
            last_row = gl.minimum(m0 + TILE_M, seq_q) - 1
            first_block, n_win = _window_tile(m0, last_row, seq_k, shift, WIN_LEFT, WIN_RIGHT, BLOCK_N)
            r0 = m0 + ROW0
            n_left, n_full = _window_counts(r0, gl.maximum(gl.minimum(r0 + BLOCK_M - 1, last_row), r0), first_block,
                                            n_win, seq_k, shift, WIN_LEFT, WIN_RIGHT, BLOCK_N)
            wb = (first_block, n_left, n_full)
            win = (WIN_LEFT, WIN_RIGHT)
        if PAGE is None:
            valid0 = gl.minimum(seq_k, BLOCK_N)  # keys of the tile's block 0 (ring slot 0, its first fill)
            # V's block 0 read rows past the sequence (_slide_in); under a window only where the tile starts at block 0
            if (k_lo + valid0 < gl.minimum(TOTAL_K, BLOCK_N)) & (first_block == 0):
                if W == 0:
                    mbarrier.wait(ready_v.index(0), 0)
                    _zero_rows_from(v_ring.index(0).reshape([BLOCK_N, HEAD_DIM]), valid0, BLOCK_N, HEAD_DIM,
                                    num_warps)
                    _named_barrier(_BAR_ARRIVE_12)
                else:
                    _named_barrier(_BAR_SYNC_12)
        vl = (q_lo, h.to(gl.int64) * TOTAL_Q + q_lo)
        if WIN_LEFT is None:
            n = _kv_blocks(m0, seq_k, shift, TILE_M, BLOCK_N, CAUSAL)
        else:
            n = n_win
        n_own = n
        n_first = n
        if SKIP:
            n_own = _kv_blocks(m0 + ROW0, seq_k, shift, BLOCK_M, BLOCK_N, CAUSAL)
            n_first = _kv_blocks(m0, seq_k, shift, BLOCK_M, BLOCK_N, CAUSAL)
        _consume_tile(o_desc, LSE, q_smem, q_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v,
                      TURN_ME, TURN_OTHER, 0, 0, 0, h, h, m0 + ROW0, n, qk_scale, seq_q, seq_k, shift, BLOCK_M,
                      BLOCK_N, HEAD_DIM, CAUSAL, STAGES, num_warps, PINGPONG, False, n_own, n_first, SKIP, False,
                      PV_OVERLAP, 0, None, ROW0, TILE_M, None, False, True, vl, wb, win, CAP_IN)
        if gl.program_id(1) == gl.num_programs(1) - 1:  # rows past the grid: NaN (none when max_seqlen_q holds)
            o_layout: gl.constexpr = _acc_layout(num_warps, HEAD_DIM)
            row_o: gl.constexpr = gl.SliceLayout(1, o_layout)
            nan_o = gl.full([BLOCK_M, HEAD_DIM], float("nan"), o_desc.dtype, o_layout)
            nan_l = gl.full([BLOCK_M], float("nan"), gl.float32, row_o)
            for r0 in range(gl.num_programs(1) * TILE_M + ROW0, seq_q, TILE_M):
                rows = r0 + gl.arange(0, BLOCK_M, layout=row_o)
                gl.store(LSE + vl[1] + rows, nan_l, mask=rows < seq_q)
                q_smem.reshape([BLOCK_M, HEAD_DIM]).store(nan_o)
                fence_async_shared()
                s_row, r_row = _slide(q_lo, r0, seq_q, BLOCK_M)
                tma.async_copy_shared_to_global(o_desc, [s_row, r_row, h, 0], q_smem)
                tma.store_wait(pendings=0)
    if W == 0:  # warpgroup 0 takes the last warpgroup's final signal, so every arrive is matched by a sync
        _take_turn(TURN_ME, PINGPONG)


# The varlen kernel's integer arguments (offsets' totals, head counts, the key offsets' stride, the window),
# unspecialised as SHAPE_ARGS are (K_STRIDE 1 would otherwise be a constant: two binaries).
VARLEN_SHAPE_ARGS = ["H", "H_KV", "TOTAL_Q", "TOTAL_K", "K_STRIDE", "WIN_LEFT", "WIN_RIGHT", "stride_bt", "PAGE",
                     "NUM_PAGES", "BT_COLS"]


@gluon.jit(do_not_specialize=VARLEN_SHAPE_ARGS)
def attn_fwd_sm90_varlen(q_desc, k_desc, v_desc, o_desc, LSE, CU_Q, CU_K, qk_scale, H, H_KV, TOTAL_Q, TOTAL_K,
                         K_STRIDE, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
                         CAUSAL: gl.constexpr, STAGES: gl.constexpr, CONSUMER_REGS: gl.constexpr, PINGPONG: gl.constexpr,
                         num_warps: gl.constexpr, SKIP_MASKED: gl.constexpr = False, PV_OVERLAP: gl.constexpr = False,
                         WIN_LEFT=None, WIN_RIGHT=None, CAP_IN=None, BT=None, stride_bt=None, PAGE=None,
                         NUM_PAGES=None, BT_COLS=None):
    """flash_attn_varlen_func on Hopper: the two-consumer warp-specialised tiles of attn_fwd_sm90_ws (BLOCK_M-row query
    tiles, 64 rows per consumer warpgroup, a TMA producer warp feeding a ring of STAGES K/V slots, ping-pong turns)
    over sequences packed along the rows (descriptors: varlen_descriptor, varlen_out_descriptor; the comment above).
    One tile per program: program (b * H + h, t) runs query tile t of sequence b, head h (GQA: key/value head h // (H / H_KV)); a program
    whose tile lies past its sequence does nothing. CU_Q, CU_K: int32 offsets (B + 1; CU_K with K_STRIDE 2: a (start,
    end) pair per sequence), public loads. LSE (H, TOTAL_Q). WIN_LEFT, WIN_RIGHT (LOCAL, both or neither): flash-attn's
    local window, an unbounded side as WINDOW_UNBOUNDED (launched without the causal flag: the window's right side
    carries it). CAP_IN (SOFTCAP): scale / softcap, the scores soft-capped as tanh(q.k * CAP_IN) with qk_scale =
    softcap * log2 e (tanh by MUFU.TANH). Absent (None), neither is in the binary. BT (PAGED; session 32): k and v are
    a paged cache's (NUM_PAGES * PAGE, H_KV, D) rows, PAGE a multiple of BLOCK_N; sequence b's key j is row
    BT[b * stride_bt + j // PAGE] * PAGE + j % PAGE (BT int32, BT_COLS columns, public loads; _paged_blocks), its
    offsets logical (keys 0 .. n - 1 of its pages, at most BT_COLS * PAGE); with or without a window and soft-cap
    (session 33).
    Every count, coordinate and branch is a function of the offsets, the shapes and the program ids."""
    dtype: gl.constexpr = q_desc.dtype
    ROWS: gl.constexpr = BLOCK_M // 2
    q_smem = gl.allocate_shared_memory(dtype, [2, 1, ROWS, 1, HEAD_DIM], q_desc.layout)
    k_ring = gl.allocate_shared_memory(dtype, [STAGES, 1, BLOCK_N, 1, HEAD_DIM], k_desc.layout)
    v_ring = gl.allocate_shared_memory(dtype, [STAGES, 1, BLOCK_N, 1, HEAD_DIM], v_desc.layout)
    q_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    q_empty = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    ready_k = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    ready_v = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    empty_k = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    empty_v = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    mbarrier.init(q_bar, count=1)
    mbarrier.init(q_empty, count=2)
    for s in gl.static_range(STAGES):
        mbarrier.init(ready_k.index(s), count=1)
        mbarrier.init(ready_v.index(s), count=1)
        mbarrier.init(empty_k.index(s), count=2)
        mbarrier.init(empty_v.index(s), count=2)
    if BT is not None:  # the V fix-ups' own barrier (_paged_blocks)
        fix_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
        mbarrier.init(fix_bar, count=1)
    else:
        fix_bar = q_bar  # never waited on (no paged cache): the partitions' capture takes no None here
    rt = (o_desc, LSE, CU_Q, CU_K, q_smem, k_ring, v_ring, q_bar, q_empty, ready_k, ready_v, empty_k, empty_v,
          qk_scale, H, TOTAL_Q, TOTAL_K, K_STRIDE, WIN_LEFT, WIN_RIGHT, CAP_IN, PAGE, BT_COLS)
    prt = (q_desc, k_desc, v_desc, CU_Q, CU_K, q_smem, k_ring, v_ring, q_bar, ready_k, ready_v, empty_k, empty_v, H,
           H_KV, TOTAL_Q, TOTAL_K, K_STRIDE, WIN_LEFT, WIN_RIGHT, BT, stride_bt, PAGE, NUM_PAGES, BT_COLS, fix_bar)
    gl.warp_specialize([(_ws_consumer_varlen, (rt, 0, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, PINGPONG,
                                               SKIP_MASKED, PV_OVERLAP)),
                        (_ws_consumer_varlen, (rt, 1, ROWS, BLOCK_N, HEAD_DIM, CAUSAL, STAGES, 4, PINGPONG,
                                               SKIP_MASKED, PV_OVERLAP)),
                        (_ws_producer_varlen, (prt, BLOCK_M, BLOCK_N, STAGES, CAUSAL))],
                       [4, 1], [CONSUMER_REGS, 24])


@functools.lru_cache(maxsize=None)
def _smem_layout(rows, head_dim, dtype, heads=1):
    """The shared layout of a [1, rows, heads, head_dim] TMA block (cached: building it costs host time on
    every call otherwise). heads > 1: sm90_decode's query block (a group's query heads of one row)."""
    from triton._utils import validate_block_shape
    validate_block_shape([1, rows, heads, head_dim])
    gl_dtype = {torch.float16: gl.float16, torch.bfloat16: gl.bfloat16}[dtype]
    return gl.NVMMASharedLayout.get_default_for([1, rows, heads, head_dim], gl_dtype)


@functools.lru_cache(maxsize=None)
def _descriptor_class():
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    class Descriptor(TensorDescriptor):
        """Gluon's TensorDescriptor with the checks TMA needs only (its own __post_init__ re-validates the
        block shape and layout on every call: about half of a launch's host time). The block shape and
        layout come from _smem_layout, validated when first built."""

        def __post_init__(self):
            if self.base.data_ptr() % 16 or any(st * self.base.element_size() % 16 for st in self.strides[:-1]) \
                    or self.strides[-1] != 1:
                raise ValueError(f"TMA needs a 16-byte aligned base and strides, and a contiguous last "
                                 f"dimension; got strides {self.strides}")
    return Descriptor


def _descriptor(t, rows, head_dim, heads=1):
    """t (B, S, H, D) in [1, rows, heads, head_dim] blocks."""
    strides = [st if n > 1 else 16 for st, n in zip(t.stride(), t.shape)]
    strides[3] = 1
    return _descriptor_class()(t, list(t.shape), strides, [1, rows, heads, head_dim],
                               _smem_layout(rows, head_dim, t.dtype, heads))


def _sliding_descriptor(t, base, rows_dim0, rd, rows, head_dim):
    """A [rows_dim0, rd, H, D] view of the packed (TOTAL, H, D) tensor t over `base` (t, or a SlidingBase before it)
    whose first two dimensions both step one row, in boxes of `rows` rows (the comment above _slide)."""
    heads, d = t.shape[1:]
    strides = [t.stride(0), t.stride(0), t.stride(1) if heads > 1 else 16, 1]
    return _descriptor_class()(base, [rows_dim0, rd, heads, d], strides, [1, rows, 1, head_dim],
                               _smem_layout(rows, head_dim, t.dtype))


def varlen_descriptor(t, rows, head_dim):
    """The sliding TMA descriptor of a packed (TOTAL, H, D) input for boxes of `rows` rows (_slide_in): a [TOTAL - RD +
    1, RD, H, D] view of t (RD = min(rows, TOTAL)): no in-bound element lies outside t."""
    rd = min(rows, t.shape[0])
    return _sliding_descriptor(t, t, t.shape[0] - rd + 1, rd, rows, head_dim)


def varlen_out_descriptor(out, rows, head_dim):
    """The sliding TMA descriptor of the packed output for boxes of `rows` rows (_slide): a [TOTAL + rows, rows, H, D]
    view over a base `rows` rows before out's, which must lie in out's own storage (the API allocates them in front,
    api._varlen_out): a base in unmapped memory faults."""
    if out.storage_offset() < rows * out.stride(0):
        raise ValueError(f"out: the Hopper varlen kernel needs {rows} rows of out's storage before it (got a storage "
                         f"offset of {out.storage_offset()} elements); allocate it with api._varlen_out")
    return _sliding_descriptor(out, SlidingBase(out, rows), out.shape[0] + rows, rows, rows, head_dim)


def varlen_launch_args(q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, softmax_scale, causal, config,
                       k_stride=1, window=None, softcap=0.0, paged=None):
    """(grid, args, kwargs) of attn_fwd_sm90_varlen: q, out (TOTAL_Q, H, D), k, v (TOTAL_K, H_KV, D), lse (H, TOTAL_Q)
    float32, int32 offsets (B + 1); out with block_m / 2 rows of its storage in front (api._varlen_out:
    varlen_out_descriptor); config: a TileConfig with split=2 (variants.VARLEN_SM90); k_stride: the kernel's
    K_STRIDE; window: a local window (left, right), a negative side unbounded (LOCAL; causal must then be False: the
    right side carries it), None: none; softcap > 0: soft-capping (SOFTCAP); paged: (block_table, page size, pages), k
    and v then the cache's rows (PAGED; the page size a multiple of config.block_n; with or without a window and
    soft-cap). Grid (B x H, query tiles of max_seqlen_q). Public: shapes, strides, max_seqlen_q, the window, the page size."""
    total_q, heads, d = q.shape
    head_dim = kernel_head_dim(d)
    block_m, block_n = config.block_m, config.block_n
    if config.split != 2:
        raise ValueError(f"attn_fwd_sm90_varlen runs two consumer warpgroups (split=2), got {config}")
    from .variants import VARLEN_SM90_MAX_TILES
    tiles = triton.cdiv(int(max_seqlen_q), block_m)
    if not 0 < tiles <= VARLEN_SM90_MAX_TILES:
        raise ValueError(f"max_seqlen_q: 1 to {VARLEN_SM90_MAX_TILES * block_m} queries on this kernel, got "
                         f"{max_seqlen_q}")
    rows = block_m // 2
    descs = (varlen_descriptor(q, rows, head_dim), varlen_descriptor(k, block_n, head_dim),
             varlen_descriptor(v, block_n, head_dim), varlen_out_descriptor(out, rows, head_dim))
    grid = ((cu_seqlens_q.shape[0] - 1) * heads, tiles)
    if window is not None and causal:
        raise ValueError("a local window carries causal masking as its right side (0): pass causal=False")
    from .triton_fwd import kernel_window, softcap_scales
    qk_scale, cap_in = softcap_scales(softmax_scale, softcap)
    args = descs + (lse, cu_seqlens_q, cu_seqlens_k, qk_scale, heads, k.shape[1], total_q, k.shape[0], int(k_stride))
    kwargs = dict(BLOCK_M=block_m, BLOCK_N=block_n, HEAD_DIM=head_dim, CAUSAL=bool(causal), STAGES=config.num_stages,
                  CONSUMER_REGS=232, PINGPONG=bool(config.pingpong), num_warps=4)
    if window is not None:
        kwargs.update(zip(("WIN_LEFT", "WIN_RIGHT"), kernel_window(window)))
    if softcap > 0:
        kwargs.update(CAP_IN=cap_in)
    if paged is not None:
        bt, page, pages = paged
        if page <= 0 or page % block_n or page * pages > k.shape[0]:
            raise ValueError(f"a paged cache on attn_fwd_sm90_varlen: pages of a multiple of {block_n} rows within k's "
                             f"{k.shape[0]}; got {pages} pages of {page}")
        kwargs.update(BT=bt, stride_bt=bt.stride(0), PAGE=int(page), NUM_PAGES=int(pages), BT_COLS=bt.shape[1])
    if skips_masked(causal, block_m, block_n, 2):
        kwargs.update(SKIP_MASKED=True)
    if config.pv_overlap:
        kwargs.update(PV_OVERLAP=True)
    return grid, args, kwargs


SMEM_LIMIT = 227 * 1024  # bytes of shared memory a CTA may use on sm_90
SPLIT_KV_PARTS = (2, 4, 8, 16, 32, 64)  # programs per tile that SPLIT_KV's tree of meetings takes


def kernel_head_dim(head_dim):
    """The head dim the kernel is built for: the next power of two (its row and column ranges need one). D=96 and 192
    run as 128 and 256: the TMA descriptors keep the tensor's own last dim, so loads fill the columns past it with
    zeros (they add nothing to QK^T, and give O zero columns there) and the O store clips them; the softmax scale is
    the caller's (from D). Public: the shape."""
    return 1 << (int(head_dim) - 1).bit_length()


def ws_smem_bytes(block_m, block_n, head_dim, stages, o_smem, elt=2, split_k=False, q_double=False, o_rows=0,
                  barriers=1024):
    """Shared memory of attn_fwd_sm90_ws's tiles: Q (two with q_double; and O when it has a buffer of its own),
    K/V ring (split keys: a sub-ring of `stages` slots per consumer, and the fp32 hand-over of O, m and l); o_rows: an
    O buffer of that many rows besides (O_HALF: one consumer's); plus `barriers` bytes for Triton's mbarriers."""
    ring = 2 * stages if split_k else stages
    merge = (block_m * head_dim + 2 * block_m) * 4 if split_k else 0
    q_tiles = (2 if q_double else 1) + (1 if o_smem else 0)
    return ((block_m * q_tiles + o_rows) * head_dim + 2 * ring * block_n * head_dim) * elt + merge + barriers


def skips_masked(causal, block_m, block_n, split):
    """Whether a warp-specialised build runs SKIP_MASKED (_consume_tile's SKIP) by default: causal, two or
    three consumers, and key blocks narrower than the tile, so that on a diagonal tile a consumer's own rows
    end blocks before the tile's last (for 64-row consumers and 128-key blocks with the usual offset 0,
    none would). Public: flags and tile sizes. Session 7 run 1 (random-order A/B, 15 rounds, against the
    same build without it): D=128 S=512 causal (n64s3) x1.025, D=256 2K / 16K causal (n64s2) x1.005 /
    x1.035, D=64 8K / 16K causal (three consumers) x1.033 / x1.007."""
    return bool(causal) and split >= 2 and block_n < block_m


def consumer_rows(block_m, split, split_k=False):
    """Rows of Q each consumer warpgroup reads (its TMA block): the tile's share, or with split keys the
    whole tile (both consumers on the same rows). The default partition has consumer_rows // 16 warps."""
    return block_m if split_k else block_m // split


def launch_args(q, k, v, out, lse, softmax_scale, causal, causal_offset, block_m=64, block_n=128, stages=2,
                warp_specialized=False, split=1, consumer_regs=None, pingpong=False, persistent=False,
                num_sms=None, skip_masked=None, split_k=False, maxnreg=None, q_double=False, defer_store=False,
                split_kv=False, workspace=None, pv_overlap=False, paired=True, kv_rows=True, pack=0, balance=False,
                trace=False, o_regs=False, v_stage=False, o_half=False, light_first=False, cluster=False,
                stamps=None, cluster_tight=False, cluster_pull=None):
    """(grid, args, kwargs) on (B, S, H, D) views; fp16/bf16. Warp-specialised: the default partition has
    consumer_rows // 16 warps (one warpgroup per 64 rows); the grid is one program per work unit, or
    (persistent) one per SM with O in a shared buffer of its own when it fits. num_sms: the GPU's SM
    count (public; read from q's device when None). maxnreg: ptxas's register limit per thread at launch
    (experiments: the one-consumer build at 128 fits two CTAs per SM instead of one). split_kv: programs
    per tile (SPLIT_KV_PARTS), each with a part of its key blocks (attn_fwd_sm90_ws SPLIT_KV);
    workspace: (ws, flags) from split_kv_workspace, allocated here on q's device when None. pv_overlap: each
    softmax runs while the previous block's PV GEMM is in flight (attn_fwd_sm90_ws PV_OVERLAP). paired=False (causal,
    split keys, not persistent): one tile per work unit, so one program per tile (PAIRED). kv_rows (split_kv): the
    programs of a tile store and load only its rows below SEQ_Q in their meetings (SPLIT_KV_ROWS; False: every row,
    for comparison). pack (split_kv; sessions 16-17; or split=2, persistent: session 18): grouped-query tiles of
    variants.pack_heads query heads that share a key/value head, in slots of `pack` rows (attn_fwd_sm90_ws PACK).
    balance (causal, two consumers with skip_masked, paired units): the consumers exchange row halves on each unit's
    second tile (attn_fwd_sm90_ws BALANCE); ignored where those do not hold (non-causal calls of a causal build's
    tiles). trace (experiments: scripts/trace_timeline.py): the timeline build (attn_fwd_sm90_ws TRACE); lse must have
    trace_words(grid) words past its B x H x S_q rows. o_regs (split=2, persistent, no pack / split keys / split KV /
    q_double / defer_store; session 39): O stored from registers (attn_fwd_sm90_ws O_REG: True for 2, or 1), no O
    buffer. v_stage (causal, two consumers with skip_masked, O in Q's tile, 64-row consumers and 64-key blocks;
    experiments, session 39): the second consumer stages O in its last block's V slot where that block is its alone
    (attn_fwd_sm90_ws V_STAGE). o_half (with v_stage; session 40): the first consumer's O in a buffer of its own
    (attn_fwd_sm90_ws O_HALF); ignored with v_stage by non-causal calls. light_first (causal, two consumers, paired units,
    not balance; session 40): each unit's light tile first (attn_fwd_sm90_ws LIGHT_FIRST); non-causal calls ignore it.
    cluster (with split_kv, not pack; session 43): pairs of a tile's parts as clusters of two CTAs (CLUSTER; launched by
    cluster_launcher); cluster=4 (split_kv >= 4; session 48): each four parts one cluster of four (CLUSTER_N = 4);
    cluster=8 (split_kv >= 8; session 49): each eight parts one cluster of eight (CLUSTER_N = 8); cluster=16
    (split_kv >= 16; session 50): of sixteen, a non-portable cluster size (cluster_launcher allows it on the function).
    cluster_tight (with cluster; experiments, session 45): the meeting area at cluster_offset(tight=True).
    cluster_pull (cluster 4 / 8 / 16 with split_kv of as many parts, D = 64 / 128; session 51): the tile's one cluster
    meets in one exchange and each part stores its columns of O (attn_fwd_sm90_ws CL_PULL; out's head dim the kernel's,
    unit column stride, other strides multiples of 8); None: where those hold (cluster_pull_ok)."""
    batch, seq_q, heads, head_dim = q.shape
    head_dim = kernel_head_dim(head_dim)  # D=96 / 192 run as 128 / 256: TMA zero-fills the columns past D
    rows = consumer_rows(block_m, split, split_k)
    if pack:
        from .variants import pack_blocks
        blocks = pack_blocks(heads // k.shape[2], seq_q, block_m, pack) if heads % k.shape[2] == 0 else 0
        if not ((split_kv and split == 1) or (split == 2 and persistent and not split_k and not q_double)) \
                or block_m % pack or not blocks:
            raise ValueError(f"pack={pack}: split_kv builds of one consumer or persistent builds of two (without "
                             f"split_k or q_double), and at least one query head's "
                             f"{seq_q} positions in slots of {pack} rows within {block_m} (heads {heads}, key/value "
                             f"heads {k.shape[2]})")
        heads = k.shape[2] * blocks  # the kernel's heads: blocks of query heads (_pack_block)
    q_rows = pack or rows  # packed: one TMA block of `pack` rows per slot
    descs = (_descriptor(q, q_rows, head_dim), _descriptor(k, block_n, head_dim), _descriptor(v, block_n, head_dim),
             _descriptor(out, q_rows, head_dim), lse, float(softmax_scale) * LOG2E)
    shape = (heads, k.shape[2], seq_q, k.shape[1], int(causal_offset))
    kwargs = dict(BLOCK_M=block_m, BLOCK_N=block_n, HEAD_DIM=head_dim, CAUSAL=bool(causal), STAGES=stages,
                  num_warps=rows // 16 if warp_specialized else 4)
    if not warp_specialized:
        return (triton.cdiv(seq_q, block_m), batch * heads), descs + shape, kwargs
    num_m = triton.cdiv(seq_q, block_m)
    if not paired and (not split_k or persistent):
        raise ValueError("paired=False: split keys (split_k=True), one program per unit (not persistent)")
    units = batch * heads * ((num_m + 1) // 2 if causal and paired else num_m)
    if split_kv:
        if split != 1 or persistent or split_k or q_double or defer_store:
            raise ValueError("split_kv: one consumer (split=1), one program per unit (not persistent), without "
                             "split_k, q_double or defer_store")
        parts = int(split_kv)
        if parts not in SPLIT_KV_PARTS and not (parts == 1 and pack):
            raise ValueError(f"split_kv: {', '.join(map(str, SPLIT_KV_PARTS))} programs per tile (1 with pack), got "
                             f"{split_kv!r}")
        kwargs.update(SPLIT_KV=parts, NONCE=split_kv_nonce())
        if cluster:  # (session 43) the two programs of a tile as one cluster (launched by cluster_launcher); with more
            # parts, each pair of parts one cluster (CL_TREE, session 47)
            if pack:
                raise ValueError(f"cluster: split_kv without pack, got pack={pack}")
            kwargs.update(CLUSTER=cluster_offset(block_m, block_n, head_dim, stages, cluster_tight))
            if cluster in (4, 8, 16):  # (sessions 48-50) each four / eight / sixteen parts one cluster of that many
                # CTAs: two / three / four levels in shared memory (16 a non-portable cluster size)
                if parts < cluster:
                    raise ValueError(f"cluster={cluster}: split_kv of {cluster} or more parts, got {parts}")
                kwargs.update(CLUSTER_N=int(cluster))
            pull_ok = cluster_pull_ok(out, head_dim, parts, cluster if cluster in (4, 8, 16) else 2)
            if cluster_pull and not pull_ok:
                raise ValueError(f"cluster_pull: one, two or four clusters of 4, 8 or 16 parts a tile (split_kv="
                                 f"{parts}, cluster={cluster}), head dim 64 or 128 ({out.shape[3]}) and out with unit "
                                 f"column stride and other strides multiples of 8 (strides {tuple(out.stride())})")
            if pull_ok and (cluster_pull or (cluster_pull is None and CL_PULL_DEFAULT)):
                kwargs.update(CL_PULL=True, O_PTR=out, O_SB=out.stride(0), O_SS=out.stride(1), O_SH=out.stride(2))
        from .variants import cluster_parts
        if parts > cluster_parts(cluster):  # the tree's meetings in global memory (a split whose parts
            # are one cluster meets in shared memory only)
            ws, flags = workspace if workspace is not None else split_kv_workspace(q, block_m, parts, head_dim, pack,
                                                                                   k.shape[2])
            kwargs.update(WS=ws, FLAGS=flags)
        if stamps is not None:  # (experiments) int64 [2 * 8 * programs]: (clock64, globaltimer) per stamp
            kwargs.update(STAMPS=stamps, STAMP=True)
        if not kv_rows:
            kwargs.update(SPLIT_KV_ROWS=False)
        units = parts * batch * heads * num_m  # causal tiles are not paired: `parts` programs for each tile
    if pack:
        kwargs.update(PACK=int(pack))
    if persistent:
        if num_sms is None:
            num_sms = sm_count(q.device) if q.is_cuda else 132
        grid = (min(units, num_sms),)
    else:
        grid = (units,)
    o_smem = persistent and ws_smem_bytes(block_m, block_n, head_dim, stages, True, split_k=split_k) <= SMEM_LIMIT
    if o_regs:
        if split != 2 or not persistent or split_k or pack or split_kv or q_double or defer_store \
                or out.stride(3) != 1 or any(st % 8 for st in out.stride()[:3]) or out.shape[3] % 8 \
                or (o_regs is not True and out.shape[3] != head_dim):
            raise ValueError(f"o_regs: two consumers (split=2) on a persistent grid without split_k, pack, split_kv, "
                             f"q_double or defer_store, and out with unit stride along a head dim that is a multiple "
                             f"of 8 (o_regs=1: the kernel's, {head_dim}) and the other strides multiples of 8; got "
                             f"split={split}, persistent={persistent}, split_k={split_k}, pack={pack}, "
                             f"split_kv={split_kv}, q_double={q_double}, defer_store={defer_store}, out "
                             f"{tuple(out.shape)} with strides {tuple(out.stride())}")
        o_smem = False
    if split_k and ws_smem_bytes(block_m, block_n, head_dim, stages, False, split_k=True) > SMEM_LIMIT:
        raise ValueError(f"split keys: block_m={block_m}, block_n={block_n}, stages={stages} per consumer at "
                         f"head_dim={head_dim} need more than {SMEM_LIMIT} bytes of shared memory")
    if consumer_regs is None:  # three consumer warpgroups share the register file: 160 for the second and third
        consumer_regs = 160 if split == 3 else 232  # spills nothing at D=64 (176 spills); 232 for the second of two
    kwargs.update(SPLIT=int(split), CONSUMER_REGS=int(consumer_regs), PINGPONG=bool(pingpong), O_SMEM=o_smem)
    if skip_masked is None:
        skip_masked = skips_masked(causal, block_m, block_n, split) and not split_k and not pack
    if split_k:
        kwargs.update(SPLIT_K=True)
    if skip_masked:
        kwargs.update(SKIP_MASKED=True)
    if balance and causal and split == 2 and skip_masked and paired and not split_k and not pack and not split_kv:
        kwargs.update(BALANCE=True)
    if maxnreg is not None:
        kwargs.update(maxnreg=int(maxnreg))
    if v_stage and causal:  # (non-causal calls of a causal build's tiles: ignored, as balance is)
        if not (split == 2 and skip_masked and not o_smem and not o_regs and not kwargs.get("BALANCE")
                and not pack and not split_k and not q_double and not defer_store and block_n == rows):
            raise ValueError(f"v_stage (causal calls): two consumers (split=2) with skip_masked, O in Q's tile (no O "
                             f"buffer, o_regs, balance, pack, split_k, q_double or defer_store) and block_n = "
                             f"{rows} (a V slot of O's shape); got split={split}, "
                             f"skip_masked={skip_masked}, block_n={block_n}, O buffer={o_smem}, o_regs={o_regs}")
        kwargs.update(V_STAGE=True)
        if o_half:  # consumer 0's O in a buffer of its own (session 40)
            if ws_smem_bytes(block_m, block_n, head_dim, stages, False, o_rows=rows) > SMEM_LIMIT:
                raise ValueError(f"o_half: shared memory for a {rows} x {head_dim} O buffer beside block_m={block_m}, "
                                 f"block_n={block_n}, stages={stages}")
            kwargs.update(O_HALF=True)
    if light_first and causal and paired and not split_k and not pack and not split_kv:  # (else: one tile a unit)
        if split != 2 or kwargs.get("BALANCE"):
            raise ValueError(f"light_first: two consumers (split=2) without balance; got split={split}, "
                             f"balance={balance}")
        kwargs.update(LIGHT_FIRST=True)
    if o_regs:
        kwargs.update(O_REG=2 if o_regs is True else int(o_regs), O_PTR=out, O_SB=out.stride(0), O_SS=out.stride(1),
                      O_SH=out.stride(2))
    if q_double:
        if not o_smem or split_k or ws_smem_bytes(block_m, block_n, head_dim, stages, True, q_double=True) > SMEM_LIMIT:
            raise ValueError(f"two Q buffers need a persistent build with O in a buffer of its own, no split keys, "
                             f"and shared memory: block_m={block_m}, block_n={block_n}, stages={stages}, "
                             f"head_dim={head_dim}")
        kwargs.update(Q_DOUBLE=True)
    if defer_store:
        if not o_smem or split_k:
            raise ValueError(f"a deferred O store needs a persistent build with O in a buffer of its own and no split "
                             f"keys: block_m={block_m}, block_n={block_n}, stages={stages}, head_dim={head_dim}")
        kwargs.update(DEFER_STORE=True)
    if pv_overlap:
        kwargs.update(PV_OVERLAP=True)
    if not paired and causal:
        kwargs.update(PAIRED=False)
    if trace:
        if split != 2 or split_k or pack or split_kv:
            raise ValueError(f"trace: the timeline build has two consumer warpgroups (split=2) without split_k, pack or "
                             f"split_kv; got split={split}, split_k={split_k}, pack={pack}, split_kv={split_kv}")
        kwargs.update(TRACE=True)
    return grid, descs + (batch * heads,) + shape, kwargs


def trace_words(grid):
    """Words (float32) a TRACE launch of `grid` writes past the LSE rows (_trace_record)."""
    return grid[0] * TRACE_ROLES.value * TRACE_TILES.value * TRACE_SLOTS.value


def split_kv_nonce():
    """A fresh SPLIT_KV nonce: 62 random bits (the OS's CSPRNG), odd and in [2^62, 2^63), so that Triton types
    and specialises every nonce alike (int64, neither 1 nor a multiple of 16: one binary). A flag holds it only
    between the two halves of one tile of the call that drew it (the kernel writes 0 back); whatever else the
    flag's memory held before (a fresh workspace is not initialised) equals it with probability 2^-61, and
    nothing the kernel computes on can steer that, as no input decides the nonce."""
    return (1 << 62) | (secrets.randbits(61) << 1) | 1


def split_kv_workspace(q, block_m, parts=2, head_dim=None, pack=0, kv_heads=None):
    """(ws, flags) for a SPLIT_KV launch on q (B, S, H, D) with `parts` programs per tile. The programs of a tile
    meet in a binary tree (_consume_tile_split_kv): per tile, a fp32 state slot (BLOCK_M x (D + 2): O, m, l; D the
    kernel's head dim, kernel_head_dim) for every node below the root (2 x parts - 2) and an int64 flag for every
    meeting (parts - 1). Neither is initialised (zeroing the flags cost a memset node, about 1 us per CUDA-graph
    replay: session 12 run 5): a flag is compared with the call's nonce only, and a state is read only after its
    writer's flag swap. Fresh per call from the caching allocator (stream-ordered, so no two launches in flight share
    it). pack: packed grouped-query tiles (launch_args; kv_heads: the call's key/value heads)."""
    batch, seq_q, heads, d = q.shape
    head_dim = head_dim or kernel_head_dim(d)
    if pack:
        from .variants import pack_blocks
        heads, seq_q = kv_heads * pack_blocks(heads // kv_heads, seq_q, block_m, pack), 1
    units = batch * heads * triton.cdiv(seq_q, block_m)
    ws = torch.empty((2 * parts - 2) * units * block_m * (head_dim + 2), dtype=torch.float32, device=q.device)
    return ws, torch.empty((parts - 1) * units, dtype=torch.int64, device=q.device)


def launch(q, k, v, out, lse, softmax_scale, causal, causal_offset, warp_specialized=False, **tiles):
    grid, args, kwargs = launch_args(q, k, v, out, lse, softmax_scale, causal, causal_offset,
                                     warp_specialized=warp_specialized, **tiles)
    if kwargs.get("CLUSTER"):  # (experiments' path; the API's is dispatch._launch)
        tensors = (q, k, v, out, lse) + ((kwargs["STAMPS"],) if kwargs.get("STAMPS") is not None else ())
        key = (tuple((t.shape, t.stride(), t.dtype, t.device) for t in tensors), tuple(grid),
               tuple(sorted((k_, v_) for k_, v_ in kwargs.items() if not isinstance(v_, torch.Tensor) and k_ != "NONCE")))
        launcher = _cluster_launchers.get(key)
        if launcher is None:
            launcher = _cluster_launchers[key] = cluster_launcher(grid, args, kwargs, tensors, softmax_scale)
        launcher(tensors, softmax_scale, q.device.index)
        return
    (attn_fwd_sm90_ws if warp_specialized else attn_fwd_sm90)[grid](*args, **kwargs)


def cluster_offset(block_m, block_n, head_dim, stages, tight=False):
    """CLUSTER's exchange area offset in dynamic shared memory: past what Triton allocates for a SPLIT_KV build (its
    tiles, bounded by ws_smem_bytes; cluster_launcher checks the compiled kernel's figure), 128-byte aligned. tight
    (experiments, session 45): the tiles plus 256 + 64 x stages bytes for Triton's mbarriers instead of ws_smem_bytes'
    1,024 (offline, Triton 3.6 allocates the tiles plus 172 + 64 x stages bytes), so that the D=128 build on 64-key blocks
    with two stages fits two CTAs an SM (115,608 bytes with the area; 116,248 with the default offset; 115,712 fit)."""
    barriers = 256 + 64 * stages if tight else 1024
    return -(-ws_smem_bytes(block_m, block_n, head_dim, stages, False, barriers=barriers) // 128) * 128


_cluster_launchers = {}  # (experiments' launch(): the API's launchers are dispatch's)


def _allow_non_portable_clusters(kernel):
    """(clusters of sixteen) CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED (14 in cuda.h) set on the
    compiled kernel's function (loaded first), through the driver; raises with the driver's code where it refuses."""
    import ctypes
    kernel.run  # loads the module: the function handle exists from here on
    err = ctypes.CDLL("libcuda.so.1").cuFuncSetAttribute(ctypes.c_void_p(kernel.function), 14, 1)
    if err:
        raise RuntimeError(f"CLUSTER: the driver refused non-portable cluster sizes for this kernel (CUresult {err})")


def cluster_launcher(grid, args, kwargs, tensors, softmax_scale):
    """The launcher (dispatch._Launcher) of a CLUSTER build: the JIT's binary, compiled for one CTA per cluster (Triton
    3.6's Gluon takes no layouts across CTAs), with metadata that asks for clusters of two CTAs and CLUSTER +
    cluster_bytes bytes of dynamic shared memory (Triton's launcher runs grid[0] // 2 clusters of 2 CTAs). tensors:
    (q, k, v, out, lse), and the stamps where STAMPS is passed. Raises where the binary's own shared memory reaches past
    CLUSTER (the area would overlap it) or no direct launcher can be made (a cluster build has no other launch path)."""
    import copy
    from . import dispatch
    ck = attn_fwd_sm90_ws.warmup(*args, grid=grid, **kwargs)
    xoff = kwargs["CLUSTER"]
    ctas = kwargs.get("CLUSTER_N", 2)
    # clusters of four, eight and sixteen: two level areas (levels 2 and 3 reuse those of 0 and 1: cluster_level_area)
    total = xoff + (cluster_bytes(kwargs["BLOCK_M"], kwargs["HEAD_DIM"]) if ctas == 2 else
                    cluster_pull_bytes(kwargs["BLOCK_M"], kwargs["HEAD_DIM"], ctas) if kwargs.get("CL_PULL") else
                    2 * cluster4_area(kwargs["BLOCK_M"], kwargs["HEAD_DIM"]))
    if ck.metadata.shared <= 49152 < total:  # the driver's limit for this function stays at 48 KB (Triton raises it
        # only for binaries past it): the launch would fail with an invalid argument (clusters of four at D=32)
        raise RuntimeError(f"CLUSTER: the meeting areas take the launch to {total} bytes of shared memory, past 48 KB, "
                           f"while the binary's own {ck.metadata.shared} bytes are below it")
    if ck.metadata.shared > xoff or grid[0] % ctas or len(grid) > 1 or total > SMEM_LIMIT:
        raise RuntimeError(f"CLUSTER: the binary's shared memory ({ck.metadata.shared} bytes) reaches past the meeting "
                           f"area's offset {xoff}, the area ends past {SMEM_LIMIT} ({total}), or the grid {grid} is not "
                           f"one dimension of a multiple of {ctas}")
    # one copy per binary (kept on it), so that every launcher of a binary returns the same kernel object, as the JIT's
    # launches of a plain build do (test_cached_launch_equals_jit_launch)
    clustered = getattr(ck, "_dhpfa_clustered", None)  # (its metadata follows from the binary's constexprs)
    if clustered is None:
        clustered = copy.copy(ck)
        clustered.packed_metadata = (ck.metadata.num_warps, ctas, total)
        if ctas > 8:  # past the portable cluster size: the function must allow it before a launch
            _allow_non_portable_clusters(clustered)
        ck._dhpfa_clustered = clustered
    launcher = dispatch._make_launcher(attn_fwd_sm90_ws, clustered, (grid[0] // ctas,), args, kwargs, tensors,
                                       softmax_scale, constant_floats=len(tensors) > 5)
    if launcher is None:
        raise RuntimeError("CLUSTER: no direct launcher for this build (a cluster build has no other launch path)")
    return launcher
