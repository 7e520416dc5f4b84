"""Decode on Hopper with the GEMMs swapped (session 54). The API runs it where variants.swap_decode_parts gives parts
(variants.SWAP_DECODE, on by default since session 55): forward() on a plan's first call, then the plan's Kept (both
kept launchers as one); decode() is the experiments' launcher (scripts/decode_swap_ab.py): forward() on outputs of its
own (in session 54's device calls it still launched through Triton's JIT every call). attn_decode_sm90_merged (session
55, variants.SWAP_DECODE_MERGE, on since session 56) merges the parts inside the launch instead of the combine's
second launch; attn_decode_sm90_split (session 58, variants.SWAP_DECODE_SPLIT, calls of 16 or more parts) spreads that
merge over the pair's first programs, a slice of the head dim each (a cooperative launch).

A decode call (one query per sequence; the G = H / H_KV query heads of a key/value head share its K and V) has G rows
a key/value head. The forward kernels (sm90_fwd) put the query rows on the WGMMA's M dimension, whose least size is
64: with G = 4 (Llama-style grouped heads) 60 of a tile's 64 rows are padding, and each 128-key block still costs
the full 64 x 128 x D score GEMM, the same PV GEMM and 64 x 128 exponentials, about 1,900 cycles at D=128 (session 50's
stamps). That chain, not DRAM, limits the few programs of long-context decode (sessions 46-53).

attn_decode_sm90 swaps the operands: S^T = K Q^T puts the block's keys on M (BLOCK_N rows, every one real) and the
query heads on N (NQ = 8-64 columns, the WGMMA's small N), and O^T = V^T P^T takes V's block as a transposed A operand
from shared memory and P from a small shared tile kept keys-contiguous (read through a transposed view: a K-major B;
session 54 call 4: the N-major P^T, P_KMAJOR=False, gave wrong outputs at 128-key blocks with NQ = 8). The softmax runs
down the columns (a reduction across the warpgroup's rows: warps and lanes), each query's m and l one value a column.
Per block: two small GEMMs, BLOCK_N x NQ exponentials, so the loads (a ring of STAGES K/V blocks issued STAGES - 1
ahead) set the pace: (1,32,8,1,65536,128) on 128 CTAs read its 268 MB of K/V in 67.7 us (about 4 TB/s; session 54 call
9, H200), where the forward kernels took 78.3.

Each program runs one part (a range of KEYS_PER_PART keys, a multiple of BLOCK_N) of one (sequence, key/value head)
and writes its normalised partial output and log-sum-exp into the workspace layout attn_varlen_combine reads
(triton_fwd: WS_O (parts, B, H, D), WS_L (parts, H, B)); that kernel merges the parts (a fixed order: the same bits
every call). Constant time: the trip count (the part's blocks), every address and predicate come from program ids and
shapes; masking of keys past the part's end is a select; exponentials are MUFU.EX2 (gl.exp2), the reciprocal and
log2 the approximate forms.
"""
import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                              warpgroup_mma_wait)

from .ctmath import LOG2E

DECODE_SHAPE_ARGS = ["B", "H", "H_KV", "SEQ_K", "KEYS_PER_PART", "G"]


@gluon.constexpr_function
def _t_layout(num_warps, n):
    """The wgmma accumulator layout of a [rows, n] fp32 tile (rows on M: keys for S^T, head-dim columns for O^T)."""
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[num_warps, 1], instr_shape=[16, n, 16])


@gluon.jit
def _one(x, dtype: gl.constexpr):
    """x as a [1] tensor of `dtype` in the warpgroup's one-element layout (the inline asm's operands)."""
    one: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    return gl.full([1], 0, dtype, one) + x


@gluon.jit
def _load_kv(k_desc, v_desc, k_ring, v_ring, ready, slot, row, b, hk, go):
    """A block's K and V (keys from row) into ring slot `slot`, both on its ready barrier; go: a public predicate."""
    mbarrier.expect(ready.index(slot), 2 * k_desc.block_type.nbytes, pred=go)
    tma.async_copy_global_to_shared(k_desc, [b, row, hk, 0], ready.index(slot), k_ring.index(slot), pred=go)
    tma.async_copy_global_to_shared(v_desc, [b, row, hk, 0], ready.index(slot), v_ring.index(slot), pred=go)


@gluon.jit
def _zero_rows(tile, n_ok, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr, num_warps: gl.constexpr):
    """(The KV-cache builds, session 69) rows n_ok .. BLOCK_N - 1 of a ring slot's [BLOCK_N, HEAD_DIM] tile set to 0 in
    shared memory, each thread rewriting what it read (the caller's fence and barrier order the stores before the GEMM
    reads the tile): V's rows past a sequence's keys are cache rows that hold no key and may hold anything, and a
    weight of 0 times NaN or inf is NaN in the GEMM. Public: n_ok (the key rows)."""
    TD: gl.constexpr = HEAD_DIM // 8 if HEAD_DIM // 8 < 32 else 32  # threads along the head dim (16-byte vectors)
    lay: gl.constexpr = gl.BlockedLayout([1, 8], [32 // TD, TD], [num_warps, 1], [1, 0])
    t = tile.reshape([BLOCK_N, HEAD_DIM])
    v = t.load(lay)
    rows = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(1, lay))
    t.store(gl.where((rows < n_ok)[:, None], v, gl.zeros_like(v)))


@gluon.jit
def _decode_part(q_desc, k_desc, v_desc, qk_scale, b, hk, start, end, G, NQ: gl.constexpr, BLOCK_N: gl.constexpr,
                 HEAD_DIM: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr, P_KMAJOR: gl.constexpr,
                 MIN_BLOCKS: gl.constexpr = 1, ZERO_TAIL: gl.constexpr = False, B=None, BLOCK_TABLE=None,
                 BT_STRIDE=None, BT_COLS=None, PAGE_SHIFT=None, PAGED: gl.constexpr = False):
    """One program's part: keys start .. end of key/value head hk of sequence b against its G query heads (NQ columns,
    those past G zero). Returns (out [HEAD_DIM, NQ] normalised, lse [NQ] natural log) in the wgmma accumulator layout
    (_t_layout) and its column slice. MIN_BLOCKS 0 (the KV-cache builds, session 67; end >= start): a part with no key
    runs no block and returns 0 and -inf (the merge weighs it 0). ZERO_TAIL (the KV-cache builds, session 69): V's rows
    past `end` in a block that crosses it set to 0 (_zero_rows) before the GEMM reads them. PAGED (the paged KV-cache
    builds, session 69): start and end are logical key positions, each block read from its page (_load_kv_at)."""
    dtype: gl.constexpr = q_desc.dtype
    t_layout: gl.constexpr = _t_layout(num_warps, NQ)
    col: gl.constexpr = gl.SliceLayout(0, t_layout)
    row: gl.constexpr = gl.SliceLayout(1, t_layout)
    if P_KMAJOR:  # P^T kept as P [NQ, BLOCK_N] (keys contiguous), read through a transposed view: a K-major B
        p_shared: gl.constexpr = gl.NVMMASharedLayout.get_default_for([NQ, BLOCK_N], dtype)
    else:  # P^T [BLOCK_N, NQ] as stored: an N-major B (session 54 call 4: wrong outputs at BLOCK_N = 128, NQ = 8)
        p_shared: gl.constexpr = gl.NVMMASharedLayout.get_default_for([BLOCK_N, NQ], dtype)
    n_blocks = gl.maximum((end - start + BLOCK_N - 1) // BLOCK_N, MIN_BLOCKS)  # public: shapes, lengths, part index

    q_smem = gl.allocate_shared_memory(dtype, [1, 1, NQ, HEAD_DIM], q_desc.layout)
    k_ring = gl.allocate_shared_memory(dtype, [STAGES, 1, BLOCK_N, 1, HEAD_DIM], k_desc.layout)
    v_ring = gl.allocate_shared_memory(dtype, [STAGES, 1, BLOCK_N, 1, HEAD_DIM], v_desc.layout)
    if P_KMAJOR:
        p_buf = gl.allocate_shared_memory(dtype, [NQ, BLOCK_N], p_shared)
        p_smem = p_buf.permute((1, 0))
    else:
        p_smem = gl.allocate_shared_memory(dtype, [BLOCK_N, NQ], p_shared)
    q_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    mbarrier.init(q_bar, count=1)
    for s in gl.static_range(STAGES):
        mbarrier.init(ready.index(s), count=1)

    mbarrier.expect(q_bar, q_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(q_desc, [b, 0, hk * G, 0], q_bar, q_smem)
    for s in gl.static_range(STAGES - 1):  # prologue: the first STAGES - 1 blocks (public predicate)
        _load_kv_at(k_desc, v_desc, k_ring, v_ring, ready, s, start + s * BLOCK_N, b, hk, s < n_blocks, B,
                    BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, PAGED)

    m_i = gl.full([NQ], float("-inf"), gl.float32, layout=col)
    l_i = gl.zeros([NQ], gl.float32, layout=col)
    acc = gl.zeros([HEAD_DIM, NQ], gl.float32, layout=t_layout)
    offs_n0 = gl.arange(0, BLOCK_N, layout=row)
    q_t = q_smem.reshape([NQ, HEAD_DIM]).permute((1, 0))  # [D, NQ]: the B operand of S^T = K Q^T
    mbarrier.wait(q_bar, 0)

    for j in range(n_blocks):
        nxt = j + STAGES - 1  # its slot was read by block j - 1, whose GEMMs have completed
        _load_kv_at(k_desc, v_desc, k_ring, v_ring, ready, nxt % STAGES, start + nxt * BLOCK_N, b, hk, nxt < n_blocks,
                    B, BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, PAGED)

        si = j % STAGES
        mbarrier.wait(ready.index(si), (j // STAGES) & 1)
        k_tile = k_ring.index(si).reshape([BLOCK_N, HEAD_DIM])
        v_t = v_ring.index(si).reshape([BLOCK_N, HEAD_DIM]).permute((1, 0))  # [D, BLOCK_N]: A of O^T = V^T P^T
        s_t = warpgroup_mma(k_tile, q_t, gl.zeros([BLOCK_N, NQ], gl.float32, t_layout), use_acc=False,
                            is_async=True)
        s_t = warpgroup_mma_wait(num_outstanding=0, deps=(s_t,))

        key_ok = (start + j * BLOCK_N + offs_n0) < end  # public: shapes and the block index
        sc = gl.where(key_ok[:, None], s_t * qk_scale, float("-inf"))
        m_new = gl.maximum(m_i, gl.max(sc, axis=0))  # every part's first block holds a key: m_new is finite
        alpha = gl.exp2(m_i - m_new)
        p = gl.exp2(sc - m_new[None, :])
        l_i = l_i * alpha + gl.sum(p, axis=0)
        m_i = m_new
        acc = acc * alpha[None, :]
        if ZERO_TAIL:
            if start + j * BLOCK_N + BLOCK_N > end:  # public: the block crosses the part's end (the key rows)
                _zero_rows(v_ring.index(si), end - start - j * BLOCK_N, BLOCK_N, HEAD_DIM, num_warps)
        p_smem.store(p.to(dtype))
        fence_async_shared()
        gl.thread_barrier()  # every warp's share of P^T is in shared memory before the GEMM reads it
        acc = warpgroup_mma(v_t, p_smem, acc, is_async=True)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        gl.thread_barrier()  # (P^T's next write waits for every warp's GEMM wait)

    mbarrier.invalidate(q_bar)
    for s in gl.static_range(STAGES):
        mbarrier.invalidate(ready.index(s))

    # the part's normalised output and log-sum-exp (natural log)
    empty = l_i == 0.0
    l_safe = gl.where(empty, 1.0, l_i)
    lse = gl.where(empty, float("-inf"), (m_i + gl.log2(l_safe)) * 0.6931471805599453)
    return acc * (1.0 / l_safe)[None, :], lse


@gluon.jit
def _store_part(out, lse, WS_O, WS_L, part, b, hk, B, H, G, NQ: gl.constexpr, HEAD_DIM: gl.constexpr,
                num_warps: gl.constexpr):
    """A part's state into the workspace attn_varlen_combine reads, for query heads hk * G + n, n < G."""
    t_layout: gl.constexpr = _t_layout(num_warps, NQ)
    offs_q = gl.arange(0, NQ, layout=gl.SliceLayout(0, t_layout))
    offs_d = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(1, t_layout))
    head = hk * G + offs_q
    q_ok = offs_q < G
    ws_row = (part * B + b).to(gl.int64) * H + head  # WS_O (parts, B, H, D)
    gl.store(WS_O + ws_row[None, :] * HEAD_DIM + offs_d[:, None], out, mask=q_ok[None, :])
    gl.store(WS_L + (part * H + head).to(gl.int64) * B + b, lse, mask=q_ok)  # WS_L (parts, H, B)


@gluon.jit
def _run_part(q_desc, k_desc, v_desc, WS_O, WS_L, qk_scale, B, H, H_KV, SEQ_K, KEYS_PER_PART, G, NQ: gl.constexpr,
              BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr,
              P_KMAJOR: gl.constexpr, BOUNDS=None, VARLEN: gl.constexpr = False, BLOCK_TABLE=None, BT_STRIDE=None,
              BT_COLS=None, PAGE_SHIFT=None, PAGED: gl.constexpr = False):
    """The program's part (grid: parts x (sequence, key/value head) pairs) into the workspace; returns (part, pair,
    sequence, key/value head). KEYS_PER_PART is per + r (part_keys): each of the n parts takes `per` keys (whole
    blocks) and the last r (< BLOCK_N) one block more, so part p starts at p x per plus a block for each longer part
    before it, and the last part ends at SEQ_K. r = 0 is session 54's form (parts of `per` keys, the last shorter); the
    even parts (session 60) are per = nb // n blocks and r = nb % n, so the longer parts end with the partial block.
    Multiplies, a mask and maxima on program ids and shapes: call 3's form (part * nb // n, integer divisions) took the
    merged build's part bounds off the uniform datapath (112 fewer uniform instructions, 66 registers for 60) and it
    lost 5-8%; a select for the longer parts' end did the same at D=64. Public: program ids and shapes.
    VARLEN (the KV-cache builds, session 67: flash_attn_with_kvcache): sequence b's keys are rows [BOUNDS[2b] - b x
    SEQ_K, BOUNDS[2b + 1] - b x SEQ_K) of its cache row of SEQ_K (api._kvcache_bounds' key rows: public, as the
    lengths), L of them, in parts of per = cdiv(cdiv(L, BLOCK_N), parts) blocks (session 54's form per sequence;
    KEYS_PER_PART unused): the parts past the last key hold none (their state 0 and -inf). PAGED (VARLEN; session 69,
    the paged KV-cache builds): k and v are pages of 2^PAGE_SHIFT rows (SEQ_K) and BOUNDS the sequences' logical
    positions, each block from its page BLOCK_TABLE[b, position >> PAGE_SHIFT]. Public: program ids, shapes, lengths,
    the block table."""
    part = gl.program_id(0)
    bkv = gl.program_id(1)
    b = bkv // H_KV
    hk = bkv % H_KV
    if VARLEN:
        if PAGED:  # (logical positions)
            lo = gl.load(BOUNDS + 2 * b)
            hi = gl.load(BOUNDS + 2 * b + 1)
        else:
            row0 = b * SEQ_K
            lo = gl.load(BOUNDS + 2 * b) - row0  # (public: the key rows)
            hi = gl.load(BOUNDS + 2 * b + 1) - row0
        nb = (hi - lo + BLOCK_N - 1) // BLOCK_N
        n = gl.num_programs(0)
        per = (nb + n - 1) // n * BLOCK_N
        start = lo + part * per
        end = gl.maximum(gl.minimum(start + per, hi), start)
        out, lse = _decode_part(q_desc, k_desc, v_desc, qk_scale, b, hk, start, end, G, NQ, BLOCK_N, HEAD_DIM, STAGES,
                                num_warps, P_KMAJOR, 0, True, B, BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, PAGED)
    else:
        r = KEYS_PER_PART % BLOCK_N  # (BLOCK_N a power of two: a mask)
        per = KEYS_PER_PART - r
        long_from = gl.num_programs(0) - r
        start = part * per + gl.maximum(part - long_from, 0) * BLOCK_N
        end = gl.minimum((part + 1) * per + gl.maximum(part + 1 - long_from, 0) * BLOCK_N, SEQ_K)
        out, lse = _decode_part(q_desc, k_desc, v_desc, qk_scale, b, hk, start, end, G, NQ, BLOCK_N, HEAD_DIM, STAGES,
                                num_warps, P_KMAJOR)
    _store_part(out, lse, WS_O, WS_L, part, b, hk, B, H, G, NQ, HEAD_DIM, num_warps)
    return part, bkv, b, hk


@gluon.jit(do_not_specialize=DECODE_SHAPE_ARGS)
def attn_decode_sm90(q_desc, k_desc, v_desc, WS_O, WS_L, qk_scale, B, H, H_KV, SEQ_K, KEYS_PER_PART, G,
                     NQ: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
                     STAGES: gl.constexpr, num_warps: gl.constexpr, P_KMAJOR: gl.constexpr = True):
    _run_part(q_desc, k_desc, v_desc, WS_O, WS_L, qk_scale, B, H, H_KV, SEQ_K, KEYS_PER_PART, G, NQ, BLOCK_N, HEAD_DIM,
              STAGES, num_warps, P_KMAJOR)


# MERGE (session 55; variants.SWAP_DECODE_MERGE): the parts of a (sequence, key/value head) pair merge inside the
# launch, so a decode call is one kernel (session 55 call 7: the combine's second launch cost 3.1-4.5 us a call in
# graph replay beside 5.7-64 us of attention). Each program stores its part's state as attn_decode_sm90 does; then,
# past a thread barrier, thread 0 stores the call's nonce into the part's own done-word (release, GPU scope), issues
# an SC fence and reads every part's done-word of the pair (relaxed, then an acquire fence); a non-aligned barrier
# reduction hands "all were done" to the warpgroup (named barrier 12). By the fences' total order the last program to
# fence sees every word, so at least one program merges; two that fence together may both merge, and they write the
# same bits (the merge reads every state from memory, in part order). A merging program loads every part's state
# (.cg; since session 57 by cp.async into shared memory), merges them, stores O and LSE, and writes the pair's words
# back to 0 (a CUDA graph replays one nonce; a word of a fresh, uninitialised workspace equals the nonce with
# probability 2^-64 and no input decides it). No program
# waits for another and no atomic is retried: a first form counted arrivals with a compare-and-swap loop, whose
# retries under 16-32 simultaneous arrivals cost 3-19 us (call 8). Public: the branch depends on arrival timing only.
@gluon.constexpr_function
def _read_word_lines(base, key, cnt):
    """PTX lines: thread t < cnt reads done-word t of the pair's words at base (ld.acquire, GPU scope) into v; ok where
    it holds key (threads past cnt: ok). The wide arrival's (_done_asm) and the split's poll (_POLL_ASM); the asm
    declares .pred q, ok; .b64 v; .u64 a; .u32 tid (= %tid.x)."""
    return [f"setp.lt.u32 q, tid, {cnt};", "mul.wide.u32 a, tid, 8;", f"add.u64 a, a, {base};", f"mov.b64 v, {key};",
            "@q ld.acquire.gpu.global.b64 v, [a];", f"setp.eq.b64 ok, v, {key};"]


@gluon.constexpr_function
def _done_asm(max_parts, stamped=False, wide=False):
    """Thread 0: nonce $3 into the done-word at $1 (release), an SC fence; then the pair's $4 words from $2 read with
    acquire semantics (the others count as done); 1 in every thread of the warpgroup where all held the nonce. Two
    forms of the read:
    - serial (wide False; sessions 55-57): thread 0 reads every word itself (relaxed), then an acquire fence; a
      barrier reduction (or) hands its verdict to the warpgroup. The loads grow with the words (session 57 call 11:
      ~800 cycles at 16 parts, ~1,500 at 64; the fence and barrier ~630).
    - wide (session 58): past a warpgroup barrier (named barrier 12) behind thread 0's SC fence, thread t < $4 reads
      word t (ld.acquire: one load a thread, at most two warps' worth; SASS: a strong load and CCTL.IVALL, no
      MEMBAR.ALL.GPU); a barrier reduction (and; threads past $4 count as done) hands the verdict to every thread.
      Why the readers see what thread 0 alone would: for a
      part j whose release store W_j precedes its SC fence F_j, and F_j precedes this program's F in the SC fences'
      total order, F_j synchronizes with F (PTX memory model: fence.sc order); F precedes barrier 12 in thread 0,
      and a bar.sync synchronizes its threads (CTA scope); so W_j precedes thread t's load in causality order and
      the load reads W_j's nonce or a later write (a merging program's 0 for the next call: that program merged).
      The acquire: thread j's load that read W_j synchronizes with part j's release (and part j's state stores
      precede the release by its thread barrier); the reduction barrier orders every thread's merge loads after it.
    (Session 57 call 6 timed two incorrect probes, commit 7913017: without the SC fence, or with a relaxed store for
    the release, the arrival took about as long: 2,100-3,950 cycles against 2,450-3,750.) stamped (experiments: the
    STAMP build): thread 0's %clock64 into [$5] past the release store, [$5+16] past the SC fence and [$5+32] once
    the words are compared (its own in the wide form) (attn_decode_sm90_merged's stamps 5-7)."""
    def clock(off):
        return ["mov.u64 ck, %clock64;", f"@t0 st.global.u64 [$5+{off}], ck;"] if stamped else []
    lines = ["{", ".reg .pred t0, q, ok;", ".reg .b64 v;\n.reg .u64 a;" if wide else f".reg .b64 v<{max_parts}>;",
             ".reg .u32 tid;", "mov.u32 tid, %tid.x;", "setp.eq.u32 t0, tid, 0;"] + \
        ([".reg .u64 ck;"] if stamped else []) + ["@t0 st.release.gpu.global.b64 [$1], $3;"] + clock(0) + \
        ["@t0 fence.sc.gpu;"] + clock(16)
    if wide:
        lines += ["barrier.sync 12, 128;"] + _read_word_lines("$2", "$3", "$4") + clock(32) + \
            ["barrier.red.and.pred ok, 12, 128, ok;"]
    else:
        for p in range(max_parts):
            lines += [f"mov.b64 v{p}, $3;", f"setp.gt.and.s32 q, $4, {p}, t0;",
                      f"@q ld.relaxed.gpu.global.b64 v{p}, [$2+{8 * p}];"]
        lines.append("mov.pred ok, t0;")
        lines += [f"setp.eq.and.b64 ok, v{p}, $3, ok;" for p in range(max_parts)]
        lines += clock(32) + ["@t0 fence.acq_rel.gpu;", "barrier.red.or.pred ok, 12, 128, ok;"]
    return "\n".join(lines + ["selp.u32 $0, 1, 0, ok;", "}"])


@gluon.jit
def _arrive_all(words, part, nonce, n, MAX_PARTS: gl.constexpr, STAMP: gl.constexpr = False, stamps=None,
                WIDE: gl.constexpr = False):
    """Mark this part done in the pair's words (n of them) and read all (see _done_asm; WIDE: a thread a word); 1
    where every part is done, the same in every thread of the warpgroup. Public. STAMP (experiments): thread 0's
    clock at three points inside (_done_asm stamped) into this program's stamps 5-7 (see _stamp_addr)."""
    gl.static_assert(gl.num_warps() == 4, "one warpgroup")
    gl.static_assert(not WIDE or MAX_PARTS <= 128, "a thread a word")
    mine = _one((words + part).to(gl.int64, bitcast=True), gl.int64)
    base = _one(words.to(gl.int64, bitcast=True), gl.int64)
    key = _one(nonce, gl.int64)
    cnt = _one(n, gl.int32)
    if STAMP:
        got = gl.inline_asm_elementwise(_done_asm(MAX_PARTS, True, WIDE), "=r,l,l,l,r,l",
                                        [mine, base, key, cnt, _stamp_addr(stamps, 5)], dtype=gl.int32,
                                        is_pure=False, pack=1)
    else:
        got = gl.inline_asm_elementwise(_done_asm(MAX_PARTS, False, WIDE), "=r,l,l,l,r", [mine, base, key, cnt],
                                        dtype=gl.int32, is_pure=False, pack=1)
    return gl.max(got, 0)


@gluon.jit
def _merge_round(lse_p, o3, m, w_sum, acc, ln: gl.constexpr):
    """One round of _merge_parts: a chunk's LSEs lse_p [CHUNK, NQ] (-inf where masked off) and states o3 [CHUNK, NQ,
    HEAD_DIM] into the running max m, weight sum w_sum [NQ] and weighted sum acc [NQ, HEAD_DIM]; in-thread, in part
    order."""
    m_new = gl.maximum(m, gl.max(lse_p, axis=0))
    m_sub = gl.where(m_new == float("-inf"), 0.0, m_new)
    alpha = gl.exp2((m - m_sub) * 1.4426950408889634)  # 0 in the first round (m = -inf)
    w = gl.exp2((lse_p - m_sub[None, :]) * 1.4426950408889634)  # 0 for the parts masked off
    w_sum = w_sum * alpha + gl.sum(w, axis=0)
    acc = acc * gl.convert_layout(alpha, ln)[:, None] + gl.sum(o3 * w[:, :, None], axis=0)
    return m_new, w_sum, acc


@gluon.jit
def _load_round(WS_L, WS_O, l_row, o_row, ok, d3):
    """A round's LSEs (-inf where ok is off) and states (0 there) from the workspace, past L2's copies (.cg)."""
    lse_p = gl.load(WS_L + l_row, mask=ok, other=float("-inf"), cache_modifier=".cg")
    o3 = gl.load(WS_O + o_row, mask=ok[:, :, None] & (d3 >= 0), other=0.0, cache_modifier=".cg")
    return lse_p, o3


@gluon.jit
def _merge_parts(WS_O, WS_L, O, LSE, b, hk, B, H, G, n_parts, stride_ob, stride_oh, dtype: gl.constexpr,
                 NQ: gl.constexpr, HEAD_DIM: gl.constexpr, CHUNK: gl.constexpr, PREFETCH: gl.constexpr,
                 MAX_PARTS: gl.constexpr, ASYNC: gl.constexpr):
    """A merging program of a pair: the parts' states CHUNK at a time (cdiv(n_parts, CHUNK) rounds: public), each a
    [CHUNK, NQ, HEAD_DIM] tile with a thread's parts in its own registers and 4 consecutive columns of a query head a
    thread (16-byte loads); the rounds merge online (running max, rescaled sums; the parts past n_parts masked off), in
    part order, in-thread: the same bits whichever program merges. O and LSE stored for query heads hk * G + n, n < G.
    (Session 55's first form loaded [MAX_PARTS, HEAD_DIM, NQ] with a column a thread: 2,600 instructions and 255
    registers at D=64, mostly 64-bit address arithmetic of scalar loads.) Three forms of the loads: ASYNC (shipped
    since session 57: through shared memory, every round in flight at once), PREFETCH (session 56: a round ahead in
    registers) and neither (a round at a time)."""
    VEC: gl.constexpr = 4
    TD: gl.constexpr = HEAD_DIM // VEC if HEAD_DIM // VEC < 32 else 32  # threads along the head dim
    L3: gl.constexpr = gl.BlockedLayout([CHUNK, 1, VEC], [1, 32 // TD, TD], [1, 4, 1], [2, 1, 0])
    lp: gl.constexpr = gl.SliceLayout(2, L3)  # [CHUNK, NQ]
    lo: gl.constexpr = gl.SliceLayout(0, L3)  # [NQ, HEAD_DIM]
    ln: gl.constexpr = gl.SliceLayout(1, lo)  # [NQ] beside O's rows
    parts_l = gl.arange(0, CHUNK, layout=gl.SliceLayout(1, lp))[:, None]
    q_l = gl.arange(0, NQ, layout=gl.SliceLayout(0, lp))[None, :]
    p3 = parts_l[:, :, None]
    n3 = gl.arange(0, NQ, layout=gl.SliceLayout(0, gl.SliceLayout(2, L3)))[None, :, None]
    d3 = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(0, gl.SliceLayout(1, L3)))[None, None, :]
    l_row = (parts_l * H + hk * G + q_l).to(gl.int64) * B + b  # WS_L (parts, H, B)
    l_step = (CHUNK * H).to(gl.int64) * B
    o_row = ((p3 * B + b).to(gl.int64) * H + hk * G + n3) * HEAD_DIM + d3  # WS_O (parts, B, H, D)
    o_step = (CHUNK * B).to(gl.int64) * H * HEAD_DIM
    m = gl.full([NQ], float("-inf"), gl.float32, gl.SliceLayout(0, lp))
    w_sum = gl.zeros([NQ], gl.float32, gl.SliceLayout(0, lp))
    acc = gl.zeros([NQ, HEAD_DIM], gl.float32, lo)
    if ASYNC:  # (session 57, the shipped form) every round's states copied into shared memory at once (cp.async:
        # no registers held per byte in flight; the K/V ring's memory, free by now), each round merged from there as
        # its copies land; LSEs in one load. cp.async is a generic-proxy access, ordered after the arrival's acquire
        # fence and barrier as the loads of the other forms are; .cg: from L2, past this SM's L1
        gl.static_assert(MAX_PARTS % CHUNK == 0 and NQ <= 32, "whole rounds; the LSE tile's layout")
        R_MAX: gl.constexpr = MAX_PARTS // CHUNK
        flat3: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [2, 1, 0])
        flat2: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [1, 0])
        o_buf = gl.allocate_shared_memory(gl.float32, [MAX_PARTS, NQ, HEAD_DIM], flat3)
        l_buf = gl.allocate_shared_memory(gl.float32, [MAX_PARTS, NQ], flat2)
        for r in gl.static_range(R_MAX):
            if r * CHUNK < n_parts:  # public: rounds past the grid's parts are neither copied nor filled
                ok = (parts_l + r * CHUNK < n_parts) & (q_l < G)
                async_copy.async_copy_global_to_shared(o_buf.slice(r * CHUNK, CHUNK), WS_O + (o_row + r * o_step),
                                                       mask=ok[:, :, None] & (d3 >= 0), cache_modifier=".cg")
            async_copy.commit_group()  # (every round a group, copied or not: wait_group's counts are constants)
        la: gl.constexpr = gl.BlockedLayout([1, 1], [32 // NQ, NQ], [4, 1], [1, 0])
        pa = gl.arange(0, MAX_PARTS, layout=gl.SliceLayout(1, la))[:, None]
        qa = gl.arange(0, NQ, layout=gl.SliceLayout(0, la))[None, :]
        lse_all = gl.load(WS_L + ((pa * H + hk * G + qa).to(gl.int64) * B + b), mask=(pa < n_parts) & (qa < G),
                          other=float("-inf"), cache_modifier=".cg")
        l_buf.store(lse_all)
        for r in gl.static_range(R_MAX):
            async_copy.wait_group(R_MAX - 1 - r)
            gl.thread_barrier()  # (every thread's copies of the round, and l_buf, before any reads them)
            if r * CHUNK < n_parts:  # public: the grid's part count
                lse_p = l_buf.slice(r * CHUNK, CHUNK).load(lp)
                o3 = o_buf.slice(r * CHUNK, CHUNK).load(L3)
                m, w_sum, acc = _merge_round(lse_p, o3, m, w_sum, acc, ln)
    elif PREFETCH:  # (experiment, session 56) the next round's loads issued before this round's sums
        lse_p, o3 = _load_round(WS_L, WS_O, l_row, o_row, (parts_l < n_parts) & (q_l < G), d3)
        for c in range(0, n_parts, CHUNK):  # public: the grid's part count
            l_row += l_step
            o_row += o_step
            # (all off in the last round)
            lse_n, o3_n = _load_round(WS_L, WS_O, l_row, o_row, (parts_l + (c + CHUNK) < n_parts) & (q_l < G), d3)
            m, w_sum, acc = _merge_round(lse_p, o3, m, w_sum, acc, ln)
            lse_p = lse_n
            o3 = o3_n
    else:
        for c in range(0, n_parts, CHUNK):  # public: the grid's part count
            lse_p, o3 = _load_round(WS_L, WS_O, l_row, o_row, (parts_l + c < n_parts) & (q_l < G), d3)
            m, w_sum, acc = _merge_round(lse_p, o3, m, w_sum, acc, ln)
            l_row += l_step
            o_row += o_step
    _store_merged(m, w_sum, acc, O, LSE, b, hk, B, G, stride_ob, stride_oh, 0, True, dtype, NQ, HEAD_DIM, lp, lo, ln)


@gluon.jit
def _store_merged(m, w_sum, acc, O, LSE, b, hk, B, G, stride_ob, stride_oh, col0, with_lse, dtype: gl.constexpr,
                  NQ: gl.constexpr, COLS: gl.constexpr, lp: gl.constexpr, lo: gl.constexpr, ln: gl.constexpr):
    """A merge's end (_merge_parts, _merge_slice): acc [NQ, COLS] / w_sum into O's columns [col0, col0 + COLS) for
    query heads hk * G + n, n < G, and, where with_lse, the LSE (m + log w_sum; -inf for a head with no key)."""
    m_sub = gl.where(m == float("-inf"), 0.0, m)
    empty = w_sum == 0.0
    w_safe = gl.where(empty, 1.0, w_sum)
    inv = gl.convert_layout(1.0 / w_safe, ln)
    n_o = gl.arange(0, NQ, layout=ln)[:, None]
    d_o = gl.arange(0, COLS, layout=gl.SliceLayout(0, lo))[None, :]
    o_base = O + b.to(gl.int64) * stride_ob + (hk * G + n_o) * stride_oh + col0
    gl.store(o_base + d_o, (acc * inv[:, None]).to(dtype), mask=(n_o < G) & (d_o >= 0))
    if with_lse:  # public: a constant, or the slice's program id
        q_s = gl.arange(0, NQ, layout=gl.SliceLayout(0, lp))
        lse_f = gl.where(empty, float("-inf"), m_sub + gl.log2(w_safe) * 0.6931471805599453)
        gl.store(LSE + (hk * G + q_s).to(gl.int64) * B + b, lse_f, mask=q_s < G)  # (H, B)


_STAMP_ASM = gl.constexpr("{\n.reg .pred t0;\n.reg .u32 tid;\n.reg .u64 c, g;\nmov.u32 tid, %tid.x;\n"
                          "setp.eq.u32 t0, tid, 0;\nmov.u64 c, %clock64;\nmov.u64 g, %globaltimer;\n"
                          "@t0 st.global.v2.u64 [$1], {c, g};\nmov.u32 $0, 0;\n}")


@gluon.jit
def _stamp_addr(stamps, idx):
    """(experiments: STAMP) the address of this program's stamp idx, stamps[2 (8 program + idx)] (int64 pairs), program
    = part + parts x pair, as a [1] int64 tensor of the warpgroup's one-element layout."""
    pid = gl.program_id(0) + gl.num_programs(0) * gl.program_id(1)
    return _one((stamps + (pid * 8 + idx) * 2).to(gl.int64, bitcast=True), gl.int64)


@gluon.jit
def _stamp(stamps, idx):
    """(experiments: STAMP) thread 0 writes (%clock64, %globaltimer) at this program's stamp idx (_stamp_addr)."""
    gl.inline_asm_elementwise(_STAMP_ASM, "=r,l", [_stamp_addr(stamps, idx)], dtype=gl.int32, is_pure=False, pack=1)


@gluon.jit
def _stamp_count(stamps, idx, n):
    """(experiments: STAMP) thread 0 writes n into the clock word of this program's stamp idx (_stamp_addr)."""
    gl.inline_asm_elementwise(_STORE64_ASM, "=r,l,l", [_stamp_addr(stamps, idx), _one(n, gl.int64)], dtype=gl.int32,
                              is_pure=False, pack=1)


@gluon.jit
def _reset_words(words, n, MAX_PARTS: gl.constexpr):
    """A merged pair's first n done-words := 0 (the merging program's reset, which the next launch's arrivals rely on:
    a CUDA graph's replays reuse one nonce)."""
    one: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    offs = gl.arange(0, MAX_PARTS, layout=one)
    gl.store(words + offs, gl.zeros([MAX_PARTS], gl.int64, layout=one), mask=offs < n)


@gluon.jit(do_not_specialize=DECODE_SHAPE_ARGS + ["stride_ob", "stride_oh", "BT_STRIDE", "BT_COLS", "PAGE_SHIFT"])
def attn_decode_sm90_merged(q_desc, k_desc, v_desc, WS_O, WS_L, O, LSE, FLAGS, qk_scale, B, H, H_KV, SEQ_K,
                            KEYS_PER_PART, G, stride_ob, stride_oh, NQ: gl.constexpr, BLOCK_N: gl.constexpr,
                            HEAD_DIM: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr,
                            MAX_PARTS: gl.constexpr, CHUNK: gl.constexpr, PREFETCH: gl.constexpr = False,
                            NONCE=None, STAMP: gl.constexpr = False, STAMPS=None, ASYNC: gl.constexpr = False,
                            WIDE: gl.constexpr = False, BOUNDS=None, VARLEN: gl.constexpr = False, BLOCK_TABLE=None,
                            BT_STRIDE=None, BT_COLS=None, PAGE_SHIFT=None, PAGED: gl.constexpr = False):
    """attn_decode_sm90 with the pair's parts merged in the launch (see the comment above _done_asm): O (B, 1, H, D)
    with strides stride_ob, stride_oh and a unit last one, LSE (H, B) float32, FLAGS (B x H_KV x parts,) int64
    (uninitialised: a done-word a part), NONCE the call's (sm90_fwd.split_kv_nonce); at most MAX_PARTS parts (the
    grid's first axis). STAMP (experiments, session 57): thread 0 of each program writes (%clock64, %globaltimer) at
    STAMPS[program, idx] (int64 pairs, 8 a program, program = part + n_parts x pair): its start (0), past its part's
    store (1), past the arrival (2), past its merge (3, merging programs only) and at its end (4); inside the
    arrival the clock alone past the release store (5), the SC fence (6) and the words' compare (7). BOUNDS, VARLEN
    (session 67, the KV-cache builds), BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, PAGED (session 69, their paged
    form): _run_part's."""
    if STAMP:
        _stamp(STAMPS, 0)
    part, bkv, b, hk = _run_part(q_desc, k_desc, v_desc, WS_O, WS_L, qk_scale, B, H, H_KV, SEQ_K, KEYS_PER_PART, G, NQ,
                                 BLOCK_N, HEAD_DIM, STAGES, num_warps, True, BOUNDS, VARLEN, BLOCK_TABLE, BT_STRIDE,
                                 BT_COLS, PAGE_SHIFT, PAGED)
    n_parts = gl.num_programs(0)
    gl.thread_barrier()  # every thread's state stores come before thread 0's release
    if STAMP:
        _stamp(STAMPS, 1)
    words = FLAGS + bkv * n_parts
    all_done = _arrive_all(words, part, NONCE, n_parts, MAX_PARTS, STAMP, STAMPS, WIDE)
    if STAMP:
        _stamp(STAMPS, 2)
    if all_done != 0:  # every part is done (public: timing, not data)
        _merge_parts(WS_O, WS_L, O, LSE, b, hk, B, H, G, n_parts, stride_ob, stride_oh, q_desc.dtype, NQ, HEAD_DIM,
                     CHUNK, PREFETCH, MAX_PARTS, ASYNC)
        if STAMP:
            _stamp(STAMPS, 3)
        _reset_words(words, n_parts, MAX_PARTS)
    if STAMP:
        _stamp(STAMPS, 4)


# SPLIT (session 58; variants.SWAP_DECODE_SPLIT): the pair's merge spread over its first SPLIT programs, a slice of
# HEAD_DIM / SPLIT columns each, instead of one program merging all of it. Session 58 call 1's stamps put the one
# merging program's merge at ~4,700 cycles for 32 parts at D=128 (112 KB of states through one SM) against an arrival
# of ~1,900: a slice reads 1/SPLIT of the bytes, one round trip. The slices' programs must wait for every part, so the
# kernel is launched cooperative (launch_cooperative_grid: the driver runs every program of the grid at once, or
# refuses the launch; the rule never launches more programs than SMs): no program can wait on one that is not running.
# Each program stores its part's state, and thread 0 its done-word T (release, GPU scope); programs past SPLIT exit;
# the others poll the pair's words (a word a thread, ld.acquire; an and-reduction barrier) until all hold T, then
# merge their slice: every part's LSE and the slice's states in one load each, the same arithmetic as _merge_parts
# in one round (a fixed reduction order: the same bits every call). The LSE is stored by the first slice. T: the
# words are never reset (a program cannot know when the others have stopped reading them); a launch's T is the call's
# nonce, or nonce ^ 1 where the program's own word already holds the nonce (a CUDA graph's replay of one nonce: each
# program reads its own word, which only it writes, before its part, so every program of a launch agrees: all the
# previous launch's words hold the same T; a fresh workspace's words hold the nonce with probability 2^-64). Public:
# the polls' count depends on the programs' timing only, the slices and branches on program ids and shapes.
@gluon.jit
def _split_target(word, nonce):
    """The done-word value T of this launch (see the comment above): nonce ^ 1 where this program's own word already
    holds nonce, else nonce; a [1] int64 tensor of the warpgroup's one-element layout."""
    one: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    key = _one(nonce, gl.int64)
    old = gl.load(word + gl.zeros([1], gl.int32, one))
    return gl.where(old == key, key ^ 1, key)


def _thread0_asm(op, result="mov.u32 $0, 0;"):
    """PTX: thread 0 alone does `op` (the other threads skip it); every thread then sets $0 by `result`."""
    return "{\n.reg .pred t0;\n.reg .u32 tid;\nmov.u32 tid, %tid.x;\nsetp.eq.u32 t0, tid, 0;\n@t0 " + op + "\n" + \
        result + "\n}"


def _words_read_asm(sync):
    """PTX: thread t < $3 reads done-word t of the words at $1 (ld.acquire) and compares it with $2; 1 in every thread
    where all hold it (an and-reduction barrier, named barrier 12). sync: past barrier 12 first (behind thread 0's SC
    fence: _done_asm's wide read without its release and fence), else at once (the split's poll)."""
    return "\n".join(["{", ".reg .pred q, ok;", ".reg .b64 v;", ".reg .u64 a;", ".reg .u32 tid;",
                      "mov.u32 tid, %tid.x;"] + (["barrier.sync 12, 128;"] if sync else []) +
                     _read_word_lines("$1", "$2", "$3") +
                     ["barrier.red.and.pred ok, 12, 128, ok;", "selp.u32 $0, 1, 0, ok;", "}"])


_RELEASE_ASM = gl.constexpr(_thread0_asm("st.release.gpu.global.b64 [$1], $2;"))
_STORE64_ASM = gl.constexpr(_thread0_asm("st.global.u64 [$1], $2;"))
_POLL_ASM = gl.constexpr(_words_read_asm(False))


@gluon.jit
def _split_release(word, target):
    """Thread 0: this part's done-word := target (release, GPU scope; past the caller's thread barrier)."""
    mine = _one(word.to(gl.int64, bitcast=True), gl.int64)
    gl.inline_asm_elementwise(_RELEASE_ASM, "=r,l,l", [mine, target], dtype=gl.int32, is_pure=False, pack=1)


@gluon.constexpr_function
def _nanosleep_asm(ns):
    return f"{{\nnanosleep.u32 {ns};\nmov.u32 $0, 0;\n}}"


@gluon.jit
def _nanosleep(ns: gl.constexpr):
    """(experiments: BACKOFF) every thread sleeps about ns nanoseconds."""
    one: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    gl.inline_asm_elementwise(_nanosleep_asm(ns), "=r,r", [gl.zeros([1], gl.int32, one)], dtype=gl.int32,
                              is_pure=False, pack=1)


@gluon.jit
def _split_poll(words, target, n):
    """One poll of the pair's n done-words (thread t reads word t, ld.acquire; t < n <= 128): 1 in every thread where
    all hold target."""
    base = _one(words.to(gl.int64, bitcast=True), gl.int64)
    cnt = _one(n, gl.int32)
    got = gl.inline_asm_elementwise(_POLL_ASM, "=r,l,l,r", [base, target, cnt], dtype=gl.int32, is_pure=False,
                                    pack=1)
    return gl.max(got, 0)


@gluon.jit
def _merge_slice(WS_O, WS_L, O, LSE, b, hk, B, H, G, n_parts, s, stride_ob, stride_oh, dtype: gl.constexpr,
                 NQ: gl.constexpr, HEAD_DIM: gl.constexpr, MAX_PARTS: gl.constexpr, SPLIT: gl.constexpr,
                 WARP_ROWS: gl.constexpr):
    """Slice s of a pair's merge: columns [s CW, (s + 1) CW) (CW = HEAD_DIM / SPLIT) of O for query heads hk * G + n,
    n < G, from every part's LSE and the slice's states (one [MAX_PARTS, NQ, CW] tile, the parts past n_parts masked
    off), merged as _merge_parts merges (max, weights, weighted sum; one round); slice 0 stores the LSE. WARP_ROWS:
    the tile's warps along the query heads, else along the parts."""
    CW: gl.constexpr = HEAD_DIM // SPLIT
    TC: gl.constexpr = CW // 4  # threads along the slice's columns (16-byte loads)
    if WARP_ROWS:  # the warps along the query heads: the sums over the parts stay inside a warp (shuffles, no barrier)
        RW: gl.constexpr = NQ // 4  # query heads a warp
        TP: gl.constexpr = 32 // (RW * TC)  # threads of a warp along the parts
        gl.static_assert(CW % 4 == 0 and NQ % 4 == 0 and RW * TC <= 32 and MAX_PARTS % TP == 0, "the tile's layout")
        L3: gl.constexpr = gl.BlockedLayout([MAX_PARTS // TP, 1, 4], [TP, RW, TC], [1, 4, 1], [2, 1, 0])
    else:  # (calls 2-4) the warps along the parts: the sums cross warps through shared memory
        TP: gl.constexpr = 32 // (NQ * TC)
        gl.static_assert(CW % 4 == 0 and NQ * TC <= 32 and MAX_PARTS % (TP * 4) == 0, "the slice tile's layout")
        L3: gl.constexpr = gl.BlockedLayout([MAX_PARTS // (TP * 4), 1, 4], [TP, NQ, TC], [4, 1, 1], [2, 1, 0])
    lp: gl.constexpr = gl.SliceLayout(2, L3)  # [MAX_PARTS, NQ]
    lo: gl.constexpr = gl.SliceLayout(0, L3)  # [NQ, CW]
    ln: gl.constexpr = gl.SliceLayout(1, lo)  # [NQ] beside O's rows
    parts_l = gl.arange(0, MAX_PARTS, layout=gl.SliceLayout(1, lp))[:, None]
    q_l = gl.arange(0, NQ, layout=gl.SliceLayout(0, lp))[None, :]
    ok = (parts_l < n_parts) & (q_l < G)
    lse_p = gl.load(WS_L + ((parts_l * H + hk * G + q_l).to(gl.int64) * B + b), mask=ok, other=float("-inf"),
                    cache_modifier=".cg")
    p3 = parts_l[:, :, None]
    n3 = gl.arange(0, NQ, layout=gl.SliceLayout(0, gl.SliceLayout(2, L3)))[None, :, None]
    c3 = gl.arange(0, CW, layout=gl.SliceLayout(0, gl.SliceLayout(1, L3)))[None, None, :]
    o_off = ((p3 * B + b).to(gl.int64) * H + hk * G + n3) * HEAD_DIM + s * CW + c3  # WS_O (parts, B, H, D)
    o3 = gl.load(WS_O + o_off, mask=ok[:, :, None] & (c3 >= 0), other=0.0, cache_modifier=".cg")
    m = gl.full([NQ], float("-inf"), gl.float32, gl.SliceLayout(0, lp))
    w_sum = gl.zeros([NQ], gl.float32, gl.SliceLayout(0, lp))
    acc = gl.zeros([NQ, CW], gl.float32, lo)
    m, w_sum, acc = _merge_round(lse_p, o3, m, w_sum, acc, ln)
    _store_merged(m, w_sum, acc, O, LSE, b, hk, B, G, stride_ob, stride_oh, s * CW, s == 0, dtype, NQ, CW, lp, lo, ln)


@gluon.jit(do_not_specialize=DECODE_SHAPE_ARGS + ["stride_ob", "stride_oh", "BT_STRIDE", "BT_COLS", "PAGE_SHIFT"])
def attn_decode_sm90_split(q_desc, k_desc, v_desc, WS_O, WS_L, O, LSE, FLAGS, qk_scale, B, H, H_KV, SEQ_K,
                           KEYS_PER_PART, G, stride_ob, stride_oh, NQ: gl.constexpr, BLOCK_N: gl.constexpr,
                           HEAD_DIM: gl.constexpr, STAGES: gl.constexpr, num_warps: gl.constexpr,
                           MAX_PARTS: gl.constexpr, SPLIT: gl.constexpr, NONCE=None, STAMP: gl.constexpr = False,
                           STAMPS=None, BACKOFF: gl.constexpr = 0, WARP_ROWS: gl.constexpr = True, BOUNDS=None,
                           VARLEN: gl.constexpr = False, BLOCK_TABLE=None, BT_STRIDE=None, BT_COLS=None,
                           PAGE_SHIFT=None, PAGED: gl.constexpr = False):
    """attn_decode_sm90_merged's arguments, with the merge spread over the pair's first SPLIT programs (see the comment
    above _split_target); launched cooperative, with at least SPLIT and at most MAX_PARTS parts (<= 128). STAMP
    (experiments): attn_decode_sm90_merged's stamps 0-4 (3: past the slice's merge, slices' programs only). BACKOFF
    (experiments): nanoseconds of nanosleep between polls. WARP_ROWS (False: calls 2-4's form): _merge_slice's. BOUNDS,
    VARLEN (session 67, the KV-cache builds), BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, PAGED (session 69): _run_part's."""
    gl.static_assert(MAX_PARTS <= 128 and HEAD_DIM % SPLIT == 0, "a thread a done-word; whole slices")
    if STAMP:
        _stamp(STAMPS, 0)
    n_parts = gl.num_programs(0)
    words = FLAGS + gl.program_id(1) * n_parts
    target = _split_target(words + gl.program_id(0), NONCE)  # (before this program's release: its own word's old value)
    part, bkv, b, hk = _run_part(q_desc, k_desc, v_desc, WS_O, WS_L, qk_scale, B, H, H_KV, SEQ_K, KEYS_PER_PART, G, NQ,
                                 BLOCK_N, HEAD_DIM, STAGES, num_warps, True, BOUNDS, VARLEN, BLOCK_TABLE, BT_STRIDE,
                                 BT_COLS, PAGE_SHIFT, PAGED)
    gl.thread_barrier()  # every thread's state stores come before thread 0's release
    if STAMP:
        _stamp(STAMPS, 1)
    _split_release(words + part, target)
    if part < SPLIT:  # public: the program id
        done = _split_poll(words, target, n_parts)
        while done == 0:  # public: the other programs' timing
            if BACKOFF > 0:
                _nanosleep(BACKOFF)
            done = _split_poll(words, target, n_parts)
    if STAMP:
        _stamp(STAMPS, 2)
    if part < SPLIT:
        _merge_slice(WS_O, WS_L, O, LSE, b, hk, B, H, G, n_parts, part, stride_ob, stride_oh, q_desc.dtype, NQ,
                     HEAD_DIM, MAX_PARTS, SPLIT, WARP_ROWS)
        if STAMP:
            _stamp(STAMPS, 3)
    if STAMP:
        _stamp(STAMPS, 4)


# STREAM (session 61): one program an SM (or `per_sm`), each streaming a contiguous range of the call's blocks in
# pair-major order: program c of N takes flat blocks [c T // N, (c + 1) T // N) of T = pairs x nb (nb = cdiv(S_k,
# BLOCK_N) blocks a pair), so every program has the same work to within one block whatever the pair count. A program's
# range crosses pairs: its ring keeps loading across the boundary (the flat block index sets the pair and the key row),
# and at each boundary (the pair's last block, or the range's) it stores the segment's state as the piece c - c0 of
# its pair (c0: the program holding the pair's first block); past its range it marks each of its pieces done in the
# pair's words and, where every piece of a pair is done, merges them (attn_decode_sm90_merged's arrival and merge:
# _arrive_all's protocol, _merge_parts in one round). Q of the next pair is loaded into the second of two Q buffers at
# the start, and each segment's end loads the pair after next into the buffer it frees. Session 61 calls 1-3: one
# program a pair leaves a last wave of few programs at pair counts just past the SMs ((34,32,4,1,16384,128): 136 pairs,
# x0.72 of cuDNN's speed).
# Public: the ranges, boundaries and trip counts come from the program id and shapes; the merge branch from arrival
# timing only.
@gluon.jit
def _load_q(q_desc, q_smem, q_bar, i, pair, H_KV, G, go):
    """Q of `pair` (its G query heads and the next NQ - G) into Q buffer i on its barrier; go: a public predicate."""
    mbarrier.expect(q_bar.index(i), q_desc.block_type.nbytes, pred=go)
    tma.async_copy_global_to_shared(q_desc, [pair // H_KV, 0, (pair % H_KV) * G, 0], q_bar.index(i), q_smem.index(i),
                                    pred=go)


@gluon.jit
def _next_block(pair, blk, b, hk, nb, H_KV):
    """The flat block after (pair, blk) of sequence b, key/value head hk: a step with wraps (no division)."""
    w = (blk + 1 == nb).to(gl.int32)
    w2 = w * (hk + 1 == H_KV).to(gl.int32)
    return pair + w, blk + 1 - w * nb, b + w2, hk + w - w2 * H_KV


@gluon.jit
def _kv_rows(BOUNDS, b, B, SEQ_K, PAGED: gl.constexpr = False):
    """(VARLEN, session 68) sequence b's key rows in its cache row: (first, count), from api._kvcache_bounds' (start,
    end) rows (public); (0, 0) past the last sequence (b = B: a cursor past the program's last pair). PAGED (session 68,
    on from 69): the rows are already the sequence's logical positions (api._kvcache_bounds' paged form)."""
    ok = b < B
    if PAGED:
        lo = gl.load(BOUNDS + 2 * b, mask=ok, other=0)
        hi = gl.load(BOUNDS + 2 * b + 1, mask=ok, other=0)
    else:
        row0 = b * SEQ_K
        lo = gl.load(BOUNDS + 2 * b, mask=ok, other=0) - gl.where(ok, row0, 0)
        hi = gl.load(BOUNDS + 2 * b + 1, mask=ok, other=0) - gl.where(ok, row0, 0)
    return lo, hi - lo


@gluon.jit
def _load_kv_at(k_desc, v_desc, k_ring, v_ring, ready, slot, row, b, hk, go, B, BLOCK_TABLE, BT_STRIDE, BT_COLS,
                PAGE_SHIFT, PAGED: gl.constexpr):
    """(VARLEN) _load_kv of sequence b's block at key position row; PAGED (session 68): from the page
    BLOCK_TABLE[b, row >> PAGE_SHIFT] (public), at its row row % 2^PAGE_SHIFT (pages of a power of two rows, a multiple
    of BLOCK_N: the launcher checks; shifts, not a division by a runtime page size, which the auditor reads as unknown
    instructions)."""
    if PAGED:  # (the entry's indices clamped into the table: a load with no predicate, whatever go says)
        j = row >> PAGE_SHIFT
        page = gl.load(BLOCK_TABLE + gl.minimum(b, B - 1) * BT_STRIDE + gl.minimum(j, BT_COLS - 1))
        _load_kv(k_desc, v_desc, k_ring, v_ring, ready, slot, row - (j << PAGE_SHIFT), page, hk, go)
    else:
        _load_kv(k_desc, v_desc, k_ring, v_ring, ready, slot, row, b, hk, go)


@gluon.jit
def _kv_blocks(n_keys, BLOCK_N: gl.constexpr):
    """(VARLEN) a pair's blocks: its keys' blocks, one (every key masked off) where it has none. Public."""
    return gl.maximum((n_keys + BLOCK_N - 1) // BLOCK_N, 1)


@gluon.jit
def _next_block_kv(pair, blk, b, hk, s_lo, s_len, H_KV, B, BOUNDS, SEQ_K, BLOCK_N: gl.constexpr,
                   PAGED: gl.constexpr = False):
    """(VARLEN) _next_block over pairs of their own sequence's block counts (_kv_blocks), with the sequence's rows."""
    nb = _kv_blocks(s_len, BLOCK_N)
    w = (blk + 1 == nb).to(gl.int32)
    w2 = w * (hk + 1 == H_KV).to(gl.int32)
    b2 = b + w2
    lo2, len2 = _kv_rows(BOUNDS, b2, B, SEQ_K, PAGED)
    return pair + w, blk + 1 - w * nb, b2, hk + w - w2 * H_KV, lo2, len2


@gluon.jit
def _next_block_rows(pair, blk, b, hk, nb, H_KV, B, BOUNDS, SEQ_K, PAGED: gl.constexpr = False):
    """(VARLEN on the flat schedule, session 69) _next_block over the cache's nb blocks a pair, with the next block's
    sequence's key rows (_kv_rows; PAGED: its logical positions)."""
    pair, blk, b, hk = _next_block(pair, blk, b, hk, nb, H_KV)
    lo, n = _kv_rows(BOUNDS, b, B, SEQ_K, PAGED)
    return pair, blk, b, hk, lo, n


@gluon.jit
def _flat_load(k_desc, v_desc, k_ring, v_ring, ready, ld, go, pair, blk, b, hk, lo, n_keys, nb, H_KV, B, BOUNDS, SEQ_K,
               BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, BLOCK_N: gl.constexpr, STAGES: gl.constexpr,
               PAGED: gl.constexpr):
    """(VARLEN on the flat schedule, session 69) the load cursor's step: its block (pair, blk) of sequence b into ring
    slot ld % STAGES where go (public) and the block holds one of the sequence's n_keys keys, counted in ld; then the
    cursor's next block and its sequence's rows. Returns (ld, pair, blk, b, hk, lo, n_keys)."""
    go = go & (blk * BLOCK_N < n_keys)
    _load_kv_at(k_desc, v_desc, k_ring, v_ring, ready, ld % STAGES, lo + blk * BLOCK_N, b, hk, go, B, BLOCK_TABLE,
                BT_STRIDE, BT_COLS, PAGE_SHIFT, PAGED)
    ld += go.to(gl.int32)
    pair, blk, b, hk, lo, n_keys = _next_block_rows(pair, blk, b, hk, nb, H_KV, B, BOUNDS, SEQ_K, PAGED)
    return ld, pair, blk, b, hk, lo, n_keys


_FENCE_SC_ASM = gl.constexpr(_thread0_asm("fence.sc.gpu;", "mov.u32 $0, $1;"))
_WORDS_DONE_ASM = gl.constexpr(_words_read_asm(True))


@gluon.jit
def _pair_programs(pair, nb, n_prog, total):
    """(c0, c1): the programs of attn_decode_sm90_stream's schedule holding the pair's first and last blocks (program c
    holds flat block f where c T // N <= f: c = ((f + 1) N - 1) // T). Public."""
    return ((pair * nb + 1) * n_prog - 1) // total, ((pair + 1) * nb * n_prog - 1) // total


_ACQ_REL_FENCE_ASM = gl.constexpr(_thread0_asm("fence.acq_rel.gpu;", "mov.u32 $0, $1;"))
_RELAXED_STORE_ASM = gl.constexpr(_thread0_asm("st.relaxed.gpu.global.b64 [$1], $2;"))
# TAIL's read of the done-words in one round: past barrier 12 (behind thread 0's SC fence) lane l of every warp reads
# the word at $1 + 8 l where bit l of $3 is set (ld.acquire) and compares it with $2 (1 where not read); a warp ballot
# of the 32 lanes' verdicts; barrier 12 again (every thread's later merge loads after every acquire, as the wide
# arrival's reduction barrier orders them). Each warp reads the words itself, so the warps' ballots can differ (a
# piece's word landing between two warps' loads): _stream_tail ands each pair's verdicts across the warpgroup
# (_AND_ASM, barrier 12's and-reduction; session 68).
_BALLOT_ASM = gl.constexpr("\n".join(["{", ".reg .pred q, ok;", ".reg .b64 v;", ".reg .u64 a;", ".reg .u32 lane, bit;",
                                      "mov.u32 lane, %laneid;", "barrier.sync 12, 128;", "shr.b32 bit, $3, lane;",
                                      "and.b32 bit, bit, 1;", "setp.ne.u32 q, bit, 0;", "mul.wide.u32 a, lane, 8;",
                                      "add.u64 a, a, $1;", "mov.b64 v, $2;", "@q ld.acquire.gpu.global.b64 v, [a];",
                                      "setp.eq.b64 ok, v, $2;", "vote.sync.ballot.b32 $0, ok, 0xffffffff;",
                                      "barrier.sync 12, 128;", "}"]))

_AND_ASM = gl.constexpr("{\n.reg .pred p;\nsetp.ne.u32 p, $1, 0;\nbarrier.red.and.pred p, 12, 128, p;\n"
                        "selp.u32 $0, 1, 0, p;\n}")


@gluon.jit
def _store_output(out, lse, O, LSE, b, hk, B, G, stride_ob, stride_oh, NQ: gl.constexpr, HEAD_DIM: gl.constexpr,
                  num_warps: gl.constexpr):
    """A normalised state [HEAD_DIM, NQ] (the accumulator layout) and its LSE straight into O and LSE (H, B), query
    heads hk * G + n, n < G (TAIL: a pair of one piece)."""
    t_layout: gl.constexpr = _t_layout(num_warps, NQ)
    offs_q = gl.arange(0, NQ, layout=gl.SliceLayout(0, t_layout))
    offs_d = gl.arange(0, HEAD_DIM, layout=gl.SliceLayout(1, t_layout))
    q_ok = offs_q < G
    o_ptr = O + b.to(gl.int64) * stride_ob + (hk * G + offs_q)[None, :] * stride_oh + offs_d[:, None]
    gl.store(o_ptr, out.to(O.dtype.element_ty), mask=q_ok[None, :])
    gl.store(LSE + (hk * G + offs_q).to(gl.int64) * B + b, lse, mask=q_ok)


@gluon.jit
def _stream_tail(FLAGS, WS_O, WS_L, O, LSE, NONCE, c, first, last, nb, n_prog, total, B, H, H_KV, G, stride_ob,
                 stride_oh, dtype: gl.constexpr, NQ: gl.constexpr, HEAD_DIM: gl.constexpr, MAX_PARTS: gl.constexpr):
    """TAIL's arrivals (past the caller's thread barrier): thread 0 issues one release fence, then relaxed stores of the
    nonce into the done-words of its pieces of pairs first .. last with more than one piece (a release pattern: fence,
    then strong writes), then one SC fence; then one round (_BALLOT_ASM) reads every such pair's words, lane l of each
    warp word l % MAX_PARTS of pair first + l // MAX_PARTS, and each pair whose lanes all hold the nonce is merged and
    its words reset. The protocol's argument is _done_asm's: for each pair the program whose SC fence comes last sees
    every piece's word. At most 32 // MAX_PARTS pairs (the launcher checks)."""
    gl.static_assert(32 % MAX_PARTS == 0, "whole pairs in a warp's lanes")
    key = _one(NONCE, gl.int64)
    gl.inline_asm_elementwise(_ACQ_REL_FENCE_ASM, "=r,r", [_one(0, gl.int32)], dtype=gl.int32, is_pure=False, pack=1)
    for pair in range(first, last + 1):  # public: the program id and shapes
        c0, c1 = _pair_programs(pair, nb, n_prog, total)
        if c0 != c1:  # public
            mine = _one((FLAGS + pair * MAX_PARTS + c - c0).to(gl.int64, bitcast=True), gl.int64)
            gl.inline_asm_elementwise(_RELAXED_STORE_ASM, "=r,l,l", [mine, key], dtype=gl.int32, is_pure=False,
                                      pack=1)
    gl.inline_asm_elementwise(_FENCE_SC_ASM, "=r,r", [_one(0, gl.int32)], dtype=gl.int32, is_pure=False, pack=1)
    full: gl.constexpr = (1 << MAX_PARTS) - 1
    read = 0  # bit l: word l of the program's pairs' words (pair first + l // MAX_PARTS) is read (public)
    for pair in range(first, last + 1):
        c0, c1 = _pair_programs(pair, nb, n_prog, total)
        pieces = gl.where(c0 != c1, (1 << (c1 - c0 + 1)) - 1, 0)
        read = read | (pieces << ((pair - first) * MAX_PARTS))
    base = _one((FLAGS + first * MAX_PARTS).to(gl.int64, bitcast=True), gl.int64)
    ballot = gl.inline_asm_elementwise(_BALLOT_ASM, "=r,l,l,r", [base, key, _one(read, gl.int32)], dtype=gl.int32,
                                       is_pure=False, pack=1)
    ballot = gl.max(ballot, 0)  # (a one-element tensor: each warp its own ballot)
    for pair in range(first, last + 1):  # public: the program id and shapes
        c0, c1 = _pair_programs(pair, nb, n_prog, total)
        bits = (ballot >> ((pair - first) * MAX_PARTS)) & full  # (a logical shift of the 32 lanes' bits)
        # (session 68) the warps' verdicts anded (barrier 12's reduction): each warp read the words itself, and a word
        # landing between two warps' loads made them differ; a warp that saw the pair done merged its query heads
        # and reset the pair's words while another merged none, and the pair's last program (whose SC fence comes
        # last) could then read a reset word and merge none either: those heads' outputs never written (session 68
        # call 3: a repeat of test_stream_launcher_matches_float64 not bitwise equal, once in that call's decode tests)
        done = gl.inline_asm_elementwise(_AND_ASM, "=r,r", [_one((bits == full).to(gl.int32), gl.int32)],
                                         dtype=gl.int32, is_pure=False, pack=1)
        if (c0 != c1) & (gl.max(done, 0) != 0):  # every piece is done (public: timing, not data; one piece: stored)
            _merge_parts(WS_O, WS_L, O, LSE, pair // H_KV, pair % H_KV, B, H, G, c1 - c0 + 1, stride_ob, stride_oh,
                         dtype, NQ, HEAD_DIM, MAX_PARTS, False, MAX_PARTS, False)
            _reset_words(FLAGS + pair * MAX_PARTS, c1 - c0 + 1, MAX_PARTS)


@gluon.jit(do_not_specialize=["B", "H", "H_KV", "SEQ_K", "G", "stride_ob", "stride_oh", "BT_STRIDE", "BT_COLS",
                             "PAGE_SHIFT"])
def attn_decode_sm90_stream(q_desc, k_desc, v_desc, WS_O, WS_L, O, LSE, FLAGS, qk_scale, B, H, H_KV, SEQ_K, G,
                            stride_ob, stride_oh, NQ: gl.constexpr, BLOCK_N: gl.constexpr, HEAD_DIM: gl.constexpr,
                            STAGES: gl.constexpr, num_warps: gl.constexpr, MAX_PARTS: gl.constexpr, NONCE=None,
                            STAMP: gl.constexpr = False, STAMPS=None, TAIL: gl.constexpr = True,
                            WHOLE_SKIP: gl.constexpr = True, PAIR_UNITS: gl.constexpr = False, BOUNDS=None,
                            VARLEN: gl.constexpr = False, BLOCK_TABLE=None, BT_STRIDE=None, BT_COLS=None,
                            PAGE_SHIFT=None,
                            PAGED: gl.constexpr = False):
    """Decode over a flat schedule of the call's blocks (see the comment above): grid (N,), N <= B x H_KV x nb; WS_O
    (MAX_PARTS, B, H, D), WS_L (MAX_PARTS, H, B) float32; FLAGS (B x H_KV x MAX_PARTS,) int64 (uninitialised: a done-word
    a piece); O (B, 1, H, D) with strides stride_ob, stride_oh; LSE (H, B) float32. At most MAX_PARTS pieces a pair
    (stream_pieces, checked by the launcher). STAMP (experiments, prepared in session 61 for the fixed cost calls 6-8
    found): thread 0 of program c writes (%clock64, %globaltimer) at STAMPS[c, idx] (int64 pairs, 8 a program): its
    start (0), its first block landed (1), past its last block (2), past the releases and the SC fence (3), at its end
    (4), and the count of pairs it merged in stamp 5's clock word. TAIL (the shipped build from session 62; measured
    in session 61's call 14; _stream_tail): a pair of one piece stores its output at its segment's end with no arrival;
    the done-words go out under one release fence and one SC fence, and every pair's words are read in one round (at
    most 32 // MAX_PARTS pairs a program: the launcher checks). TAIL=False (experiments: session 61's first form) a
    release and a round of reads a pair. WHOLE_SKIP (TAIL; session 63, the default; False for experiments): a program
    whose range is whole pairs (it starts and ends on a pair's bounds, as every program does with as many programs as
    pairs) skips the arrivals: it wrote no done-word and no pair of its waits on a piece of another's. PAIR_UNITS
    (session 64, N <= B x H_KV): the schedule in whole pairs, program c the pairs [c P // N, (c + 1) P // N) of the P
    pairs (counts differing by at most one; where N divides P the same ranges as the flat schedule's): every pair one
    piece, stored at its segment's end, no arrival. VARLEN (PAIR_UNITS; session 68, flash_attn_with_kvcache's KV-cache
    form): k and v are caches of SEQ_K rows a sequence and each sequence's keys are the rows BOUNDS gives (_kv_rows:
    api._kvcache_bounds' (start, end) rows, public, as the lengths), so a pair's blocks are its own sequence's
    (_kv_blocks: one fully masked block for a pair with no key, whose output is 0 and LSE -inf). VARLEN without
    PAIR_UNITS (session 69): the flat schedule over the caches' blocks (the dense schedule at SEQ_K keys), a block past
    its sequence's keys neither loaded nor computed (public: the key rows). VARLEN (session 69): V's rows past the
    sequence's keys in its last block set to 0 before the GEMM (_zero_rows: they may hold NaN). PAGED (VARLEN;
    session 68, variants.SWAP_DECODE_KV_PAGED, prepared, off): k and v are pages (num_pages, 2^PAGE_SHIFT, H_KV, D) and sequence
    b's block at key position r is in page BLOCK_TABLE[b, r >> PAGE_SHIFT] (row stride BT_STRIDE; public, as
    flash-attn's block table), BOUNDS its logical positions (_load_kv_at); without PAIR_UNITS (session 69) the flat
    schedule over the logical capacity, BT_COLS pages a sequence."""
    gl.static_assert(VARLEN or not PAGED, "PAGED is a VARLEN form")
    if STAMP:
        _stamp(STAMPS, 0)
    dtype: gl.constexpr = q_desc.dtype
    t_layout: gl.constexpr = _t_layout(num_warps, NQ)
    col: gl.constexpr = gl.SliceLayout(0, t_layout)
    row: gl.constexpr = gl.SliceLayout(1, t_layout)
    p_shared: gl.constexpr = gl.NVMMASharedLayout.get_default_for([NQ, BLOCK_N], dtype)
    c = gl.program_id(0)
    n_prog = gl.num_programs(0)
    if PAGED and not PAIR_UNITS:  # (session 69) the flat schedule over the logical capacity: BT_COLS pages a sequence
        nb = (BT_COLS << PAGE_SHIFT) // BLOCK_N
    else:
        nb = (SEQ_K + BLOCK_N - 1) // BLOCK_N
    total = B * H_KV * nb  # (32-bit: the launcher checks variants.stream_schedule_fits; a 64-bit division is a CALL)
    if PAIR_UNITS:
        lo = (c * (B * H_KV) // n_prog) * nb
        hi = ((c + 1) * (B * H_KV) // n_prog) * nb
    else:
        lo = c * total // n_prog
        hi = (c + 1) * total // n_prog
    if VARLEN and PAIR_UNITS:  # pairs [p0, p1), each its own sequence's blocks (public: the key rows); the cursors
        # start at block 0 of pair p0 (lo: p0 x nb)
        p0 = c * (B * H_KV) // n_prog
        p1 = (c + 1) * (B * H_KV) // n_prog
        n_iter = 0
        for pp in range(p0, p1):
            n_iter += _kv_blocks(_kv_rows(BOUNDS, pp // H_KV, B, SEQ_K, PAGED)[1], BLOCK_N)
    else:
        n_iter = hi - lo

    q_smem = gl.allocate_shared_memory(dtype, [2, 1, 1, NQ, HEAD_DIM], q_desc.layout)
    k_ring = gl.allocate_shared_memory(dtype, [STAGES, 1, BLOCK_N, 1, HEAD_DIM], k_desc.layout)
    v_ring = gl.allocate_shared_memory(dtype, [STAGES, 1, BLOCK_N, 1, HEAD_DIM], v_desc.layout)
    p_buf = gl.allocate_shared_memory(dtype, [NQ, BLOCK_N], p_shared)
    p_smem = p_buf.permute((1, 0))
    q_bar = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(q_bar.index(i), count=1)
    for s in gl.static_range(STAGES):
        mbarrier.init(ready.index(s), count=1)

    if VARLEN and PAIR_UNITS:
        first = p0
        _load_q(q_desc, q_smem, q_bar, 0, first, H_KV, G, True)
        _load_q(q_desc, q_smem, q_bar, 1, first + 1, H_KV, G, first + 1 < p1)
    else:
        first = lo // nb
        _load_q(q_desc, q_smem, q_bar, 0, first, H_KV, G, True)
        _load_q(q_desc, q_smem, q_bar, 1, first + 1, H_KV, G, (first + 1) * nb < hi)
    # two cursors over the flat blocks, (pair, block, sequence, key/value head): the loads' STAGES - 1 ahead
    pair = first
    blk = lo - first * nb
    b = first // H_KV
    hk = first - b * H_KV
    l_pair, l_blk, l_b, l_hk = pair, blk, b, hk
    if VARLEN and not PAIR_UNITS:  # (session 69) the flat schedule over the cache's blocks, each cursor with its
        # sequence's key rows; a block past the sequence's keys is neither loaded nor computed (public: the key rows),
        # so the ring's loads (ld) and waits (cons) count only the blocks that hold keys
        s_lo, s_len = _kv_rows(BOUNDS, b, B, SEQ_K, PAGED)
        l_lo, l_len = s_lo, s_len
        ld = 0
        cons = 0
        for s in gl.static_range(STAGES - 1):  # prologue: the first STAGES - 1 blocks (public predicate)
            ld, l_pair, l_blk, l_b, l_hk, l_lo, l_len = _flat_load(
                k_desc, v_desc, k_ring, v_ring, ready, ld, s < n_iter, l_pair, l_blk, l_b, l_hk, l_lo, l_len, nb, H_KV,
                B, BOUNDS, SEQ_K, BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, BLOCK_N, STAGES, PAGED)
    elif VARLEN:  # (and each cursor's sequence's key rows: first, count)
        s_lo, s_len = _kv_rows(BOUNDS, b, B, SEQ_K, PAGED)
        l_lo, l_len = s_lo, s_len
        for s in gl.static_range(STAGES - 1):  # prologue: the first STAGES - 1 blocks (public predicate)
            _load_kv_at(k_desc, v_desc, k_ring, v_ring, ready, s, l_lo + l_blk * BLOCK_N, l_b, l_hk, s < n_iter,
                        B, BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, PAGED)
            l_pair, l_blk, l_b, l_hk, l_lo, l_len = _next_block_kv(l_pair, l_blk, l_b, l_hk, l_lo, l_len, H_KV, B,
                                                                   BOUNDS, SEQ_K, BLOCK_N, PAGED)
    else:
        for s in gl.static_range(STAGES - 1):  # prologue: the first STAGES - 1 blocks (public predicate)
            _load_kv(k_desc, v_desc, k_ring, v_ring, ready, s, l_blk * BLOCK_N, l_b, l_hk, s < n_iter)
            l_pair, l_blk, l_b, l_hk = _next_block(l_pair, l_blk, l_b, l_hk, nb, H_KV)

    m_i = gl.full([NQ], float("-inf"), gl.float32, layout=col)
    l_i = gl.zeros([NQ], gl.float32, layout=col)
    acc = gl.zeros([HEAD_DIM, NQ], gl.float32, layout=t_layout)
    offs_n0 = gl.arange(0, BLOCK_N, layout=row)
    seg = 0
    for j in range(n_iter):
        nxt = j + STAGES - 1  # its slot was read by block j - 1, whose GEMMs have completed
        if VARLEN and not PAIR_UNITS:  # (its slot: the ring's loads so far; see the prologue)
            ld, l_pair, l_blk, l_b, l_hk, l_lo, l_len = _flat_load(
                k_desc, v_desc, k_ring, v_ring, ready, ld, nxt < n_iter, l_pair, l_blk, l_b, l_hk, l_lo, l_len, nb,
                H_KV, B, BOUNDS, SEQ_K, BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, BLOCK_N, STAGES, PAGED)
        elif VARLEN:
            _load_kv_at(k_desc, v_desc, k_ring, v_ring, ready, nxt % STAGES, l_lo + l_blk * BLOCK_N, l_b, l_hk,
                        nxt < n_iter, B, BLOCK_TABLE, BT_STRIDE, BT_COLS, PAGE_SHIFT, PAGED)
            l_pair, l_blk, l_b, l_hk, l_lo, l_len = _next_block_kv(l_pair, l_blk, l_b, l_hk, l_lo, l_len, H_KV, B,
                                                                   BOUNDS, SEQ_K, BLOCK_N, PAGED)
        else:
            _load_kv(k_desc, v_desc, k_ring, v_ring, ready, nxt % STAGES, l_blk * BLOCK_N, l_b, l_hk, nxt < n_iter)
            l_pair, l_blk, l_b, l_hk = _next_block(l_pair, l_blk, l_b, l_hk, nb, H_KV)

        key0 = blk * BLOCK_N
        qi = seg % 2
        mbarrier.wait(q_bar.index(qi), (seg // 2) & 1)
        q_t = q_smem.index(qi).reshape([NQ, HEAD_DIM]).permute((1, 0))  # [D, NQ]: the B operand of S^T = K Q^T
        if VARLEN and not PAIR_UNITS:  # (session 69) a block past its sequence's keys: no load, no GEMM (public)
            live = key0 < s_len
        else:
            live: gl.constexpr = True  # (a constant: the other builds' code as before)
        if live:
            if VARLEN and not PAIR_UNITS:
                si = cons % STAGES
                mbarrier.wait(ready.index(si), (cons // STAGES) & 1)
                cons += 1
            else:
                si = j % STAGES
                mbarrier.wait(ready.index(si), (j // STAGES) & 1)
            if STAMP:
                if j == 0:
                    _stamp(STAMPS, 1)
            k_tile = k_ring.index(si).reshape([BLOCK_N, HEAD_DIM])
            v_t = v_ring.index(si).reshape([BLOCK_N, HEAD_DIM]).permute((1, 0))  # [D, BLOCK_N]: A of O^T = V^T P^T
            s_t = warpgroup_mma(k_tile, q_t, gl.zeros([BLOCK_N, NQ], gl.float32, t_layout), use_acc=False,
                                is_async=True)
            s_t = warpgroup_mma_wait(num_outstanding=0, deps=(s_t,))

            if VARLEN:  # the sequence's keys (public: the key rows); a pair with none: one block, every key masked off
                key_ok = (key0 + offs_n0) < s_len
                sc = gl.where(key_ok[:, None], s_t * qk_scale, float("-inf"))
                m_new = gl.maximum(m_i, gl.max(sc, axis=0))
                m_use = gl.where(m_new == float("-inf"), 0.0, m_new)  # (-inf only in such a block: alpha, p 0, not NaN)
                alpha = gl.exp2(m_i - m_use)
                p = gl.exp2(sc - m_use[None, :])
            else:
                key_ok = (key0 + offs_n0) < SEQ_K  # public: shapes and the block index
                sc = gl.where(key_ok[:, None], s_t * qk_scale, float("-inf"))
                m_new = gl.maximum(m_i, gl.max(sc, axis=0))  # every block holds a key: m_new is finite
                alpha = gl.exp2(m_i - m_new)
                p = gl.exp2(sc - m_new[None, :])
            l_i = l_i * alpha + gl.sum(p, axis=0)
            m_i = m_new
            acc = acc * alpha[None, :]
            if VARLEN:  # V's rows past the sequence's keys in the block that crosses its end: 0 (they hold no key)
                if key0 + BLOCK_N > s_len:  # public: the key rows
                    _zero_rows(v_ring.index(si), s_len - key0, BLOCK_N, HEAD_DIM, num_warps)
            p_smem.store(p.to(dtype))
            fence_async_shared()
            gl.thread_barrier()  # every warp's share of P^T is in shared memory before the GEMM reads it
            acc = warpgroup_mma(v_t, p_smem, acc, is_async=True)
            acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
            gl.thread_barrier()  # (P^T's next write and Q buffer qi's next load wait for every warp's GEMM wait)

        if VARLEN and PAIR_UNITS:
            seg_end = (blk == _kv_blocks(s_len, BLOCK_N) - 1) | (j == n_iter - 1)
        else:
            seg_end = (blk == nb - 1) | (j == n_iter - 1)
        if seg_end:  # the segment's end (public: shapes, the key rows and the program id)
            l_safe = gl.where(l_i == 0.0, 1.0, l_i)
            lse = gl.where(l_i == 0.0, float("-inf"), (m_i + gl.log2(l_safe)) * 0.6931471805599453)
            if PAIR_UNITS:  # every pair whole in one program
                _store_output(acc * (1.0 / l_safe)[None, :], lse, O, LSE, b, hk, B, G, stride_ob, stride_oh, NQ,
                              HEAD_DIM, num_warps)
            else:
                c0, c1 = _pair_programs(pair, nb, n_prog, total)  # the pair's first and last programs
                if TAIL:
                    if c0 == c1:  # the pair's one piece (public): its output, the bits a merge of one would store
                        _store_output(acc * (1.0 / l_safe)[None, :], lse, O, LSE, b, hk, B, G, stride_ob, stride_oh,
                                      NQ, HEAD_DIM, num_warps)
                    else:
                        _store_part(acc * (1.0 / l_safe)[None, :], lse, WS_O, WS_L, c - c0, b, hk, B, H, G, NQ,
                                    HEAD_DIM, num_warps)
                else:
                    _store_part(acc * (1.0 / l_safe)[None, :], lse, WS_O, WS_L, c - c0, b, hk, B, H, G, NQ, HEAD_DIM,
                                num_warps)
            if VARLEN and PAIR_UNITS:
                _load_q(q_desc, q_smem, q_bar, qi, pair + 2, H_KV, G, pair + 2 < p1)
            else:
                _load_q(q_desc, q_smem, q_bar, qi, pair + 2, H_KV, G, (pair + 2) * nb < hi)
            m_i = gl.full([NQ], float("-inf"), gl.float32, layout=col)
            l_i = gl.zeros([NQ], gl.float32, layout=col)
            acc = gl.zeros([HEAD_DIM, NQ], gl.float32, layout=t_layout)
            seg += 1
        if VARLEN and not PAIR_UNITS:
            pair, blk, b, hk, s_lo, s_len = _next_block_rows(pair, blk, b, hk, nb, H_KV, B, BOUNDS, SEQ_K, PAGED)
        elif VARLEN:
            pair, blk, b, hk, s_lo, s_len = _next_block_kv(pair, blk, b, hk, s_lo, s_len, H_KV, B, BOUNDS, SEQ_K,
                                                           BLOCK_N, PAGED)
        else:
            pair, blk, b, hk = _next_block(pair, blk, b, hk, nb, H_KV)

    for i in gl.static_range(2):
        mbarrier.invalidate(q_bar.index(i))
    for s in gl.static_range(STAGES):
        mbarrier.invalidate(ready.index(s))

    # the arrivals past the range's end (a merge mid-range held the ring: call 6 read 128 pairs x 1,024 keys at D=128
    # 3.0 us behind the one-part kernel): thread 0 releases every piece's done-word, then one SC fence (the protocol of
    # _done_asm: for each pair the program whose fence comes last in the fences' order sees every piece's word), then
    # each pair's words are read, a word a thread, and the pairs found done merged
    gl.thread_barrier()  # every thread's state stores come before thread 0's releases
    if STAMP:
        _stamp(STAMPS, 2)
    if PAIR_UNITS:  # (no piece: no arrival)
        return
    last = (hi - 1) // nb
    if TAIL:
        # session 63 (WHOLE_SKIP): a range of whole pairs (public) wrote no done-word and reads none: no fences
        if (lo % nb != 0) | (hi % nb != 0) | (not WHOLE_SKIP):
            _stream_tail(FLAGS, WS_O, WS_L, O, LSE, NONCE, c, first, last, nb, n_prog, total, B, H, H_KV, G, stride_ob,
                         stride_oh, dtype, NQ, HEAD_DIM, MAX_PARTS)
        return
    key = _one(NONCE, gl.int64)
    for pair in range(first, last + 1):  # public: the program id and shapes
        c0, _ = _pair_programs(pair, nb, n_prog, total)  # the pair's first program
        mine = _one((FLAGS + pair * MAX_PARTS + c - c0).to(gl.int64, bitcast=True), gl.int64)
        gl.inline_asm_elementwise(_RELEASE_ASM, "=r,l,l", [mine, key], dtype=gl.int32, is_pure=False, pack=1)
    gl.inline_asm_elementwise(_FENCE_SC_ASM, "=r,r", [_one(0, gl.int32)], dtype=gl.int32, is_pure=False, pack=1)
    if STAMP:
        _stamp(STAMPS, 3)
        merged = 0
    for pair in range(first, last + 1):  # public: the program id and shapes
        c0, c1 = _pair_programs(pair, nb, n_prog, total)
        words = FLAGS + pair * MAX_PARTS
        got = gl.inline_asm_elementwise(_WORDS_DONE_ASM, "=r,l,l,r",
                                        [_one(words.to(gl.int64, bitcast=True), gl.int64), key,
                                         _one(c1 - c0 + 1, gl.int32)],
                                        dtype=gl.int32, is_pure=False, pack=1)
        if gl.max(got, 0) != 0:  # every piece is done (public: timing, not data)
            _merge_parts(WS_O, WS_L, O, LSE, pair // H_KV, pair % H_KV, B, H, G, c1 - c0 + 1, stride_ob, stride_oh,
                         dtype, NQ, HEAD_DIM, MAX_PARTS, False, MAX_PARTS, False)
            _reset_words(words, c1 - c0 + 1, MAX_PARTS)
            if STAMP:
                merged += 1
    if STAMP:
        _stamp(STAMPS, 4)
        _stamp_count(STAMPS, 5, merged)


def stream_pieces(batch: int, kv_heads: int, seq_k: int, n_prog: int, block_n: int = 128,
                  pair_units: bool = False) -> int:
    """The most pieces any pair has in attn_decode_sm90_stream's schedule of n_prog programs (1 <= n_prog <= the
    blocks; pair_units, its PAIR_UNITS schedule: 1 <= n_prog <= the pairs, one piece a pair): the programs from the one
    holding a pair's first block to the one holding its last. Public."""
    nb = triton.cdiv(seq_k, block_n)
    total = batch * kv_heads * nb
    most = batch * kv_heads if pair_units else total
    if not 1 <= n_prog <= most:
        raise ValueError(f"n_prog: attn_decode_sm90_stream takes 1 to {most} programs here"
                         f"{' (whole pairs a program)' if pair_units else ''}, got {n_prog}")
    if pair_units:
        return 1
    first = lambda f: ((f + 1) * n_prog - 1) // total  # noqa: E731 (the program holding flat block f)
    return max(first((p + 1) * nb - 1) - first(p * nb) + 1 for p in range(batch * kv_heads))


def stream_most_pairs(batch: int, kv_heads: int, seq_k: int, n_prog: int, block_n: int = 128,
                      pair_units: bool = False) -> int:
    """The most pairs any program of attn_decode_sm90_stream's schedule of n_prog programs touches (the TAIL build
    reads at most 32 // MAX_PARTS; pair_units: its PAIR_UNITS schedule, the pairs over n_prog rounded up). Public."""
    if pair_units:
        return -(-batch * kv_heads // n_prog)
    nb = triton.cdiv(seq_k, block_n)
    total = batch * kv_heads * nb
    return max((((c + 1) * total // n_prog) - 1) // nb - (c * total // n_prog) // nb + 1 for c in range(n_prog))


def _paged_kwargs(block_table, bounds, page, block_n):
    """The paged KV-cache forms' launch keywords (session 68; the stream and merged / split launchers'): {} without a
    block table; else the table, its row stride, columns and the page's shift, PAGED. Refused without the key rows
    (bounds) or where the page (k's second dim) is not a power of two rows holding whole blocks of block_n."""
    if block_table is None:
        return {}
    if bounds is None or page % block_n or page & (page - 1):
        raise ValueError(f"block_table: the paged form takes the key rows (bounds) and pages of a power of two rows, "
                         f"a multiple of block_n ({block_n}); got {'no bounds' if bounds is None else f'pages of {page}'}")
    return dict(BLOCK_TABLE=block_table, BT_STRIDE=block_table.stride(0), BT_COLS=block_table.shape[1],
                PAGE_SHIFT=page.bit_length() - 1, PAGED=True)


def _kv_tensors(bounds, block_table):
    """The KV-cache forms' trailing launch tensors, in the kernels' order: the key rows, then the block table (each
    where given; a table comes only with rows)."""
    return tuple(t for t in (bounds, block_table) if t is not None)


def stream_launch_args(q, k, v, ws_o, ws_l, out, lse_t, flags, softmax_scale, n_prog, max_parts=4, block_n=128,
                       stages=3, num_warps=4, tail=True, pair_units=False, bounds=None,
                       block_table=None):  # (defaults: SWAP_DECODE_CONFIG's)
    """(grid, args, kwargs) of attn_decode_sm90_stream on q (B, 1, H, D), k and v (B, S_k, H_KV, D); ws_o (max_parts,
    B, H, D), ws_l (max_parts, H, B) float32, out (B, 1, H, D), lse_t (H, B) float32, flags (B x H_KV x max_parts,)
    int64; n_prog programs (stream_pieces' pieces at most max_parts). tail: the TAIL build (the shipped one: at most
    32 // max_parts pairs a program); False, session 61's first form (experiments). pair_units: the PAIR_UNITS build
    (session 64: whole pairs a program, at most the pairs' count of programs; no arrival, so no bound on the pairs a
    program). bounds (session 68, the KV-cache form): (2B,) int32 key rows (api._kvcache_bounds') of k and v as caches
    (B, S_cache, H_KV, D): with pair_units each pair's blocks its own sequence's (VARLEN); without (session 69) the flat
    schedule over the caches' blocks, those past a sequence's keys skipped. block_table (with bounds;
    session 68, on from session 69): k and v are pages (num_pages, page, H_KV, D), block_table (B, pages a sequence) int32,
    bounds the sequences' logical positions (PAGED); the page a multiple of block_n; without pair_units (session 69)
    the flat schedule over the logical capacity (the page x the table's columns)."""
    from . import variants
    from .sm90_fwd import _descriptor, split_kv_nonce
    batch, seq_q, heads, head_dim = q.shape
    seq_k, heads_kv = k.shape[1], k.shape[2]
    if seq_q != 1:
        raise ValueError(f"q: attn_decode_sm90_stream takes one query a sequence; got seq_q={seq_q}")
    paged = _paged_kwargs(block_table, bounds, seq_k, block_n)
    cap = seq_k if block_table is None else seq_k * block_table.shape[1]  # (paged: the logical capacity; session 69)
    pieces = stream_pieces(batch, heads_kv, cap, n_prog, block_n, pair_units)
    if not variants.stream_schedule_fits(n_prog, batch * heads_kv * triton.cdiv(cap, block_n)):
        raise ValueError(f"k: {batch * heads_kv} pairs of {cap} keys over {n_prog} programs pass the kernel's 32-bit "
                         "schedule arithmetic")
    if pieces > max_parts:
        raise ValueError(f"n_prog: {n_prog} programs give a pair {pieces} pieces; the build merges at most {max_parts}")
    if tail and not pair_units:
        most = stream_most_pairs(batch, heads_kv, cap, n_prog, block_n)
        if most > 32 // max_parts:
            raise ValueError(f"n_prog: the TAIL build reads at most {32 // max_parts} pairs a program; {n_prog} "
                             f"programs give one {most}")
    group = heads // heads_kv
    nq = variants.decode_nq(group)
    descs = (_descriptor(q, 1, head_dim, heads=nq), _descriptor(k, block_n, head_dim),
             _descriptor(v, block_n, head_dim))
    args = descs + (ws_o, ws_l, out, lse_t, flags, float(softmax_scale) * LOG2E, batch, heads, heads_kv, seq_k, group,
                    out.stride(0), out.stride(2))
    kw = dict(NQ=nq, BLOCK_N=block_n, HEAD_DIM=head_dim, STAGES=stages, num_warps=num_warps, MAX_PARTS=max_parts,
              NONCE=split_kv_nonce(), TAIL=bool(tail))
    if pair_units:  # (only then: the other builds' keyword sets, and so their binaries, as before)
        kw["PAIR_UNITS"] = True
    if bounds is not None:  # (session 68: likewise)
        kw.update(BOUNDS=bounds, VARLEN=True)
    kw.update(paged)  # (session 68)
    return (n_prog,), args, kw


def stream_forward(q, k, v, out, softmax_scale, n_prog, lse_t, poison=False, max_parts=None, tail=True, config=None,
                   pair_units=False, bounds=None, block_table=None):
    """The API's path to attn_decode_sm90_stream (variants.swap_decode_stream or swap_decode_whole chose it): q (B, 1,
    H, D), k and v (B, S_k, H_KV, D), out (B, 1, H, D) with a contiguous last dim, lse_t (H, B) float32; n_prog
    programs. Writes out and lse_t through a launcher kept by the call's public metadata (dispatch._launch_kept);
    returns a Kept of it once one exists (kept(q, k, v, out, lse_t, cu, device_index), as forward's), else None. poison
    (experiments, tests): the workspace starts as NaN. max_parts: the build's (variants.SWAP_DECODE_STREAM_PARTS); tail:
    the TAIL build (the shipped one; False: session 61's first form, experiments); config: the build's TileConfig
    (block_n, num_stages, num_warps; variants.SWAP_DECODE_CONFIG when None, SWAP_DECODE_WHOLE's for whole pairs);
    pair_units: the PAIR_UNITS build (session 64; variants.stream_pair_units says where). bounds (session 68,
    the KV-cache form; session 69 also without pair_units): stream_launch_args'; its Kept takes the bounds as its last argument. block_table
    (session 68): stream_launch_args' paged form (session 69: its Kept takes the table after the bounds)."""
    from . import dispatch, variants
    batch, _, heads, head_dim = q.shape
    max_parts = max_parts or variants.SWAP_DECODE_STREAM_PARTS
    ws_o = _new((max_parts, batch, heads, head_dim), torch.float32, q.device, poison)
    ws_l = _new((max_parts, heads, batch), torch.float32, q.device, poison)
    flags = torch.empty(batch * k.shape[2] * max_parts, dtype=torch.int64, device=q.device)
    cfg = config or variants.SWAP_DECODE_CONFIG
    key = (variants.SWAP_DECODE_STREAM_KERNEL, q.device, q.dtype, q.shape, q.stride(), k.shape, k.stride(), v.stride(),
           out.stride(), n_prog, max_parts, float(softmax_scale), bool(tail), cfg.block_n, cfg.num_stages,
           cfg.num_warps, bool(pair_units)) + ((True,) if bounds is not None else ()) + \
        (() if block_table is None else (tuple(block_table.shape), block_table.stride(0)))
    dispatch._launch_kept(dispatch._decode_launchers, key, attn_decode_sm90_stream,
                          lambda: stream_launch_args(q, k, v, ws_o, ws_l, out, lse_t, flags, softmax_scale, n_prog,
                                                     max_parts, cfg.block_n, cfg.num_stages, cfg.num_warps, tail,
                                                     pair_units, bounds, block_table),
                          (q, k, v, ws_o, ws_l, out, lse_t, flags) + _kv_tensors(bounds, block_table), q.device)
    first = dispatch._decode_launchers.get(key)
    return None if first is None else Kept(first, None, ws_o.numel(), ws_l.numel(), flags.numel())


def stream_decode(q, k, v, n_prog, softmax_scale=None, poison=False, tail=True, config=None, pair_units=False):
    """attn_decode_sm90_stream on q (B, 1, H, D), k, v (B, S_k, H_KV, D) in n_prog programs: (out (B, 1, H, D), lse
    (B, H, 1)). The experiments' launcher (stream_forward on outputs of its own; tail=False: session 61's first form;
    config, pair_units: stream_forward's)."""
    batch, _, heads, head_dim = q.shape
    scale = head_dim ** -0.5 if softmax_scale is None else softmax_scale
    out = _new(q.shape, q.dtype, q.device, poison)
    lse_t = _new((heads, batch), torch.float32, q.device, poison)
    stream_forward(q, k, v, out, scale, n_prog, lse_t, poison, tail=tail, config=config, pair_units=pair_units)
    return out, lse_t.t().unsqueeze(-1)


def decode_parts(seq_k: int, parts: int, block_n: int, even: bool = False) -> tuple:
    """(parts, keys of the longest part): at most `parts`, each a whole number of blocks and holding at least one key.
    Session 54's form: parts of the same whole blocks, as many as those cover (4,097 keys in 16 parts of 128-key blocks
    ran 11 parts of 3 blocks). even (session 60; variants.swap_decode_even says where): min(parts, blocks) parts whose
    block counts differ by at most one, the longer ones last (4,097 keys: 16 parts of 2-3 blocks). Public."""
    blocks = triton.cdiv(seq_k, block_n)
    n = max(1, min(parts, blocks))
    per = triton.cdiv(blocks, n) * block_n
    return (n, per) if even else (triton.cdiv(seq_k, per), per)


def part_keys(seq_k: int, parts: int, block_n: int, even: bool = False) -> int:
    """The kernels' KEYS_PER_PART (_run_part): the shorter parts' keys plus r, the count of parts one block longer (the
    last ones): 0 in session 54's form, blocks % n for the even parts. Public."""
    n, per = decode_parts(seq_k, parts, block_n, even)
    if not even:
        return per
    blocks = triton.cdiv(seq_k, block_n)
    if blocks % n >= block_n:
        raise ValueError(f"parts: {n} even parts of {block_n}-key blocks need fewer than {block_n} longer ones")
    return blocks // n * block_n + blocks % n


def launch_args(q, k, v, ws_o, ws_l, softmax_scale, parts, block_n=128, stages=3, num_warps=4, p_kmajor=True,
                merge=None, build=None, split=0, even=False, bounds=None, block_table=None):
    """(grid, args, kwargs) of attn_decode_sm90 on q (B, 1, H, D), k and v (B, S_k, H_KV, D); ws_o (parts, B, H, D) and
    ws_l (parts, H, B) float32 (`parts` as decode_parts gives). merge: (out (B, 1, H, D), lse_t (H, B) float32, flags
    (B x H_KV x parts,) int64): attn_decode_sm90_merged's instead, its build (MAX_PARTS, CHUNK, PREFETCH[, ASYNC])
    `build`, else the shipped one (variants.swap_decode_merge_build); split (with merge): attn_decode_sm90_split's
    instead, its merge over `split` slices (variants.swap_decode_split), launched cooperative. bounds (with merge;
    session 67, the KV-cache builds): (2B,) int32 key rows (api._kvcache_bounds') of k and v as a cache (B, S_cache,
    H_KV, D): each sequence's keys split in `parts` parts in the kernel (VARLEN), the grid exactly `parts` wide.
    block_table (with bounds; session 69, the paged form): k and v are pages (num_pages, page, H_KV, D) of a power of
    two rows, a multiple of block_n, block_table (B, pages a sequence) int32, bounds the logical positions (PAGED)."""
    from . import variants
    from .sm90_fwd import _descriptor, split_kv_nonce
    batch, seq_q, heads, head_dim = q.shape
    seq_k, heads_kv = k.shape[1], k.shape[2]
    if seq_q != 1:
        raise ValueError(f"q: attn_decode_sm90 takes one query a sequence; got seq_q={seq_q}")
    group = heads // heads_kv
    nq = variants.decode_nq(group)
    n_parts, _ = decode_parts(seq_k, parts, block_n, even)
    per = part_keys(seq_k, parts, block_n, even)
    if bounds is not None:  # (the kernel splits each sequence's own keys)
        if merge is None:
            raise ValueError("bounds: the KV-cache form is a merged or split build's (pass merge)")
        n_parts = parts
    paged = _paged_kwargs(block_table, bounds, seq_k, block_n)
    grid = (n_parts, batch * heads_kv)
    # q in blocks of one row of NQ heads: a key/value head's G query heads and the next NQ - G (zero past H)
    descs = (_descriptor(q, 1, head_dim, heads=nq), _descriptor(k, block_n, head_dim),
             _descriptor(v, block_n, head_dim))
    shape = (float(softmax_scale) * LOG2E, batch, heads, heads_kv, seq_k, per, group)
    if merge is not None:
        out, lse_t, flags = merge
        # (the split build merges up to SWAP_DECODE_MERGE_PARTS at any NQ; the merged build's count halves at NQ = 16)
        max_parts, chunk, prefetch, *more = build or variants.swap_decode_merge_build(head_dim, 8 if split else nq)
        args = descs + (ws_o, ws_l, out, lse_t, flags) + shape + (out.stride(0), out.stride(2))
        kv = ({} if bounds is None else dict(BOUNDS=bounds, VARLEN=True)) | paged  # (paged: session 69)
        if split:
            if not split <= n_parts <= max_parts:
                raise ValueError(f"parts: attn_decode_sm90_split takes {split} to {max_parts}, got {n_parts}")
            return grid, args, dict(NQ=nq, BLOCK_N=block_n, HEAD_DIM=head_dim, STAGES=stages, num_warps=num_warps,
                                    MAX_PARTS=max_parts, SPLIT=split, NONCE=split_kv_nonce(),
                                    WARP_ROWS=variants.SWAP_DECODE_SPLIT_WARP_ROWS[head_dim],
                                    launch_cooperative_grid=True, **kv)
        use_async = bool(more and more[0])
        wide = bool(len(more) > 1 and more[1])
        if n_parts > max_parts:
            raise ValueError(f"parts: attn_decode_sm90_merged merges at most {max_parts}, got {n_parts}")
        return grid, args, dict(NQ=nq, BLOCK_N=block_n, HEAD_DIM=head_dim, STAGES=stages, num_warps=num_warps,
                                MAX_PARTS=max_parts, CHUNK=min(chunk, max_parts), PREFETCH=prefetch,
                                NONCE=split_kv_nonce(), ASYNC=use_async, WIDE=wide, **kv)
    args = descs + (ws_o, ws_l) + shape
    kwargs = dict(NQ=nq, BLOCK_N=block_n, HEAD_DIM=head_dim, STAGES=stages, num_warps=num_warps,
                  P_KMAJOR=p_kmajor)
    return grid, args, kwargs


def decode(q, k, v, softmax_scale=None, parts=16, block_n=128, stages=3, poison=False, p_kmajor=True, merged=False,
           merge_cfg=None, split=None, extra=None, even=False):
    """Attention of q (B, 1, H, D) over k, v (B, S_k, H_KV, D) by attn_decode_sm90 and attn_varlen_combine: (out
    (B, 1, H, D), lse (B, H, 1)). The experiments' launcher (forward on outputs of its own; no argument checks beyond
    the kernel's needs). poison: the workspace, out and lse start as NaN (tests: every element is written). merge_cfg:
    (MAX_PARTS, CHUNK, PREFETCH[, ASYNC[, WIDE]]) of the merged build instead of the shipped one (experiments;
    launch_args' build). split (merged): attn_decode_sm90_split's slices, 0 for attn_decode_sm90_merged; None: as the
    API chooses (variants.swap_decode_split). extra (merged; experiments): launch keyword arguments over launch_args'
    (e.g. {"launch_cooperative_grid": False}, {"BACKOFF": 200}). even: decode_parts'."""
    from ..api import _dense_offsets
    batch, _, heads, head_dim = q.shape
    scale = head_dim ** -0.5 if softmax_scale is None else softmax_scale
    out = _new(q.shape, q.dtype, q.device, poison)
    lse_t = _new((heads, batch), torch.float32, q.device, poison)
    forward(q, k, v, out, scale, parts, block_n, stages, lse_t, _dense_offsets(q.device, batch, 1), poison, p_kmajor,
            merged, merge_cfg, split, extra, even)
    return out, lse_t.t().unsqueeze(-1)


def _new(shape, dtype, device, poison=False):
    return torch.full(shape, float("nan"), dtype=dtype, device=device) if poison else \
        torch.empty(shape, dtype=dtype, device=device)


def forward(q, k, v, out, softmax_scale, parts, block_n, stages, lse_t, cu, poison=False, p_kmajor=True, merged=False,
            merge_cfg=None, split=None, extra=None, even=None, bounds=None, block_table=None):
    """The API's decode path (variants.swap_decode_parts chose it): q (B, 1, H, D), k and v (B, S_k, H_KV, D), out
    (B, 1, H, D) views with a contiguous last dim, lse_t (H, B) float32, cu the int32 offsets 0, 1, ..., B on q's
    device (the API's kept constants); writes out and lse_t. Both launches go through launchers kept by their public
    metadata (dispatch._launch_kept: the first call's JIT launch makes them; later ones rebuild only the tensors'
    addresses and the descriptors' encodings), as the forward kernels' do. Returns a Kept (both launchers, for later
    calls with the same public metadata: the API keeps it in its plan) once both exist, else None. merged: one launch
    of attn_decode_sm90_merged instead (variants.SWAP_DECODE_MERGE; cu unused). poison, p_kmajor: decode()'s
    (experiments); merge_cfg, split, extra: decode()'s (split None: variants.swap_decode_split's: attn_decode_sm90_split
    where it gives slices); even: decode_parts' (None: variants.swap_decode_even's, as the API's plan chose). bounds
    (merged; session 67: api.flash_attn_with_kvcache): launch_args' (k, v the caches; `parts` parts each sequence's
    own keys); its Kept takes the bounds as its last argument. block_table (with bounds; session 69): launch_args'
    paged form (its Kept takes the table after the bounds)."""
    from . import dispatch, triton_fwd, variants
    batch, _, heads, head_dim = q.shape
    even = variants.swap_decode_even(batch * k.shape[2], parts, dispatch.sm_count(q.device)) if even is None \
        else bool(even)
    n_parts, _ = decode_parts(k.shape[1], parts, block_n, even)
    if bounds is not None:
        n_parts, even = parts, False
    ws_o = _new((n_parts, batch, heads, head_dim), torch.float32, q.device, poison)
    ws_l = _new((n_parts, heads, batch), torch.float32, q.device, poison)
    if merged:
        flags = torch.empty(batch * k.shape[2] * n_parts, dtype=torch.int64, device=q.device)
        sp = variants.swap_decode_split(head_dim, n_parts) if split is None else split
        key = (variants.SWAP_DECODE_MERGED_KERNEL, q.device, q.dtype, q.shape, q.stride(), k.shape, k.stride(),
               v.stride(), out.stride(), parts, block_n, stages, float(softmax_scale), merge_cfg, sp,
               tuple(sorted((extra or {}).items())), even, bounds is not None) + \
            (() if block_table is None else (tuple(block_table.shape), block_table.stride(0)))

        def args():
            grid, a, kw = launch_args(q, k, v, ws_o, ws_l, softmax_scale, parts, block_n, stages,
                                      merge=(out, lse_t, flags), build=merge_cfg, split=sp, even=even, bounds=bounds,
                                      block_table=block_table)
            return grid, a, dict(kw, **(extra or {}))
        tensors = (q, k, v, ws_o, ws_l, out, lse_t, flags) + _kv_tensors(bounds, block_table)
        dispatch._launch_kept(dispatch._decode_launchers, key, attn_decode_sm90_split if sp else attn_decode_sm90_merged,
                              args, tensors, q.device)
        first = dispatch._decode_launchers.get(key)
        return None if first is None else Kept(first, None, ws_o.numel(), ws_l.numel(), flags.numel())
    key = (variants.SWAP_DECODE_KERNEL, q.device, q.dtype, q.shape, q.stride(), k.shape, k.stride(), v.stride(), parts,
           block_n, stages, float(softmax_scale), p_kmajor, even)
    dispatch._launch_kept(dispatch._decode_launchers, key, attn_decode_sm90,
                          lambda: launch_args(q, k, v, ws_o, ws_l, softmax_scale, parts, block_n, stages,
                                              p_kmajor=p_kmajor, even=even),
                          (q, k, v, ws_o, ws_l), q.device)
    group = heads // k.shape[2]
    o_rows = out[:, 0]
    ckey = ("combine", q.device, q.dtype, q.shape, out.stride(), n_parts, group)

    def combine_args():
        cfg = variants.varlen_combine_variant(q.dtype, head_dim, group=group > 1, splits=n_parts).config
        return triton_fwd.varlen_combine_args(q[:, 0], o_rows, lse_t, cu, 1, group, n_parts, (ws_o, ws_l), cfg)
    dispatch._launch_kept(dispatch._decode_launchers, ckey, triton_fwd.attn_varlen_combine, combine_args,
                          (ws_o, ws_l, o_rows, lse_t, cu), q.device)
    first, second = dispatch._decode_launchers.get(key), dispatch._decode_launchers.get(ckey)
    if first is None or second is None:
        return None
    return Kept(first, second, ws_o.numel(), ws_l.numel())


class Kept:
    """Both launchers of one decode signature, called as one: kept(q, k, v, out, lse_t, cu, device_index) (forward()'s
    arguments) launches attn_decode_sm90 and the combine on a fresh workspace (one allocation: WS_O, then WS_L at a
    16-byte aligned offset) and passes the workspace's, out's and lse_t's base addresses as ints (the launchers read
    nothing else of them: shapes and strides are in the signature the API keeps this under). Host time of an eager
    decode step. (cu comes with each call, not kept here: one made during a CUDA graph's capture is filled only when the
    graph runs.) second None: the merged kernel alone (its flags, int64, after WS_L in the same allocation)."""
    __slots__ = ("first", "second", "size", "l_offset", "f_offset")

    def __init__(self, first, second, o_elements, l_elements, f_elements=0):
        self.first, self.second = first, second
        self.l_offset = (o_elements + 3) // 4 * 4  # float32 elements; a multiple of 4: 16 bytes
        self.f_offset = (self.l_offset + l_elements + 3) // 4 * 4
        self.size = self.f_offset + 2 * f_elements if second is None else self.l_offset + l_elements

    def __call__(self, q, k, v, out, lse_t, cu, device_index, bounds=None, block_table=None):
        ws = torch.empty(self.size, dtype=torch.float32, device=q.device)
        base = ws.data_ptr()
        ws_l = base + 4 * self.l_offset
        if self.second is None:  # (out, lse_t, bounds: tensors or base addresses, as the launcher takes them; bounds:
            # the KV-cache builds' key rows, session 67; block_table: their paged forms', session 69)
            self.first((q, k, v, base, ws_l, out, lse_t, base + 4 * self.f_offset) +
                       _kv_tensors(bounds, block_table), 1.0, device_index)
        else:
            self.first((q, k, v, base, ws_l), 1.0, device_index)
            self.second((base, ws_l, out.data_ptr(), lse_t.data_ptr(), cu), 1.0, device_index)
