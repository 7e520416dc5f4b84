"""The public tile schedule shared by the attention kernels: which query tile a program owns, which KV
blocks it visits, and which scores the mask hides. Everything here is a function of program ids, shapes
and flags only: loop bounds and predicates built from it are public by construction."""
import triton
import triton.language as tl


@triton.jit
def tile_row_block(CAUSAL: tl.constexpr):
    """The query tile (row block) of this program along grid axis 0."""
    if CAUSAL:
        # Heaviest tiles (most visible keys) first, so the tail of the grid is short.
        return tl.num_programs(0) - 1 - tl.program_id(0)
    else:
        return tl.program_id(0)


@triton.jit
def query_tile(H, H_KV, CAUSAL: tl.constexpr):
    """(pid_m, pid_bh, batch, head, kv head) of this program."""
    pid_bh = tl.program_id(1)
    h = pid_bh % H
    return tile_row_block(CAUSAL), pid_bh, pid_bh // H, h, h // (H // H_KV)


@triton.jit
def query_tile_magic(MAGIC_H, MAGIC_G, H, CAUSAL: tl.constexpr):
    """query_tile with the two divisions (by the head count H and the group size G = H / H_KV) done by multiplying with
    the host's magic numbers (triton_fwd.division_magic): n // d = ((n * magic) >> 32) - n for n, d < 2^16."""
    pid_bh = tl.program_id(1)
    b = (((pid_bh.to(tl.int64) * MAGIC_H) >> 32) - pid_bh).to(tl.int32)
    h = pid_bh - b * H
    h_kv = (((h.to(tl.int64) * MAGIC_G) >> 32) - h).to(tl.int32)
    return tile_row_block(CAUSAL), pid_bh, b, h, h_kv


@triton.jit
def kv_bounds(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    """(n_full, kv_end): keys below n_full are visible to every row of the tile (no mask); blocks in
    [n_full, kv_end) need the causal and/or ragged-tail mask. Query row i sees key j when
    j <= i + CAUSAL_OFFSET (causal) and j < SEQ_K."""
    if CAUSAL:
        full_end = tl.minimum(tl.maximum(m0 + CAUSAL_OFFSET + 1, 0), SEQ_K)
        kv_end = tl.minimum(tl.maximum(m0 + BLOCK_M + CAUSAL_OFFSET, 0), SEQ_K)
    else:
        full_end = SEQ_K
        kv_end = SEQ_K
    return (full_end // BLOCK_N) * BLOCK_N, kv_end


@triton.jit
def mask_scores(qk, offs_m, offs_n, SEQ_K, CAUSAL_OFFSET, CAUSAL: tl.constexpr):
    """Hide invisible scores by a select to -inf (never a branch)."""
    visible = (offs_n < SEQ_K)[None, :]
    if CAUSAL:
        visible = visible & (offs_n[None, :] <= offs_m[:, None] + CAUSAL_OFFSET)
    return tl.where(visible, qk, float("-inf"))


@triton.jit
def window_bounds(r0, r1, SEQ_K, SHIFT, WIN_LEFT, WIN_RIGHT, BLOCK_N: tl.constexpr):
    """(lo, f0, f1, hi) of a query tile whose rows are query positions r0 .. r1 under a local window: query i sees
    key j when i + SHIFT - WIN_LEFT <= j <= i + SHIFT + WIN_RIGHT and j < SEQ_K (an unbounded side is passed as a
    bound past any length, WINDOW_UNBOUNDED). Keys in [f0, f1) are visible to every row of the tile (no mask);
    [lo, f0) and [f1, hi) need the mask. lo, f0 and f1 are multiples of BLOCK_N (or equal to hi); empty ranges come
    out with hi <= lo."""
    lo = (tl.maximum(r0 + SHIFT - WIN_LEFT, 0) // BLOCK_N) * BLOCK_N
    hi = tl.minimum(SEQ_K, tl.maximum(r1 + SHIFT + WIN_RIGHT + 1, 0))
    f0 = tl.minimum(tl.maximum((tl.maximum(r1 + SHIFT - WIN_LEFT, 0) + BLOCK_N - 1) // BLOCK_N * BLOCK_N, lo), hi)
    f1 = tl.maximum(tl.minimum((tl.maximum(tl.minimum(SEQ_K, r0 + SHIFT + WIN_RIGHT + 1), 0) // BLOCK_N) * BLOCK_N,
                               hi), f0)
    return lo, f0, f1, hi


@triton.jit
def kv_bounds_rows(r0, r1, SEQ_K, CAUSAL_OFFSET, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    """kv_bounds for a tile whose rows are query positions r0 .. r1 (packed grouped heads repeat positions)."""
    if CAUSAL:
        full_end = tl.minimum(tl.maximum(r0 + CAUSAL_OFFSET + 1, 0), SEQ_K)
        kv_end = tl.minimum(tl.maximum(r1 + 1 + CAUSAL_OFFSET, 0), SEQ_K)
    else:
        full_end = SEQ_K
        kv_end = SEQ_K
    return (full_end // BLOCK_N) * BLOCK_N, kv_end


@triton.jit
def mask_window(qk, offs_m, offs_n, SEQ_K, SHIFT, WIN_LEFT, WIN_RIGHT):
    """Hide the scores outside the local window (and past SEQ_K) by a select to -inf (never a branch)."""
    rel = offs_n[None, :] - (offs_m[:, None] + SHIFT)
    visible = (offs_n < SEQ_K)[None, :] & (rel <= WIN_RIGHT) & (rel >= -WIN_LEFT)
    return tl.where(visible, qk, float("-inf"))
