"""One launch path for every shipped variant, Triton or Gluon: the API, the auditor and the GPU tests all
build a variant's arguments here, so the binary audited offline is the one launched. Kernel modules are
imported on first use (TRITON_INTERPRET is read when a kernel is defined; Gluon is not needed on CPU).

Host time. `fn[grid](*args)` re-derives Triton's specialisation of every argument on each call (binder,
cache key, descriptor checks): about half of an eager call's host time. `launch` keeps, per *launch key*
(the variant and every public value the specialisation can depend on: dtype, device, shapes, strides,
flags), the CompiledKernel that the first call's JIT launch returned, with the call's integer arguments,
and afterwards calls that kernel's launcher directly with the new tensors. The kernel is the very object
the JIT compiled and checked (so the launched binary is still the audited one); only the per-call Python
around it is skipped. Set DHPFA_FAST_LAUNCH=0 to always go through the JIT (for comparison)."""
import functools
import inspect
import os

import torch
from triton import knobs

from .ctmath import LOG2E

_FAST = os.environ.get("DHPFA_FAST_LAUNCH", "1") != "0"
_launchers = {}  # launch key -> _Launcher, or None where the fast path does not apply
MAX_LAUNCHERS = 4096


def sm_count(device) -> int:
    """Streaming multiprocessors of the GPU `device` (public: a property of the machine)."""
    return _sm_count(device.index if device.index is not None else torch.cuda.current_device())


@functools.lru_cache(maxsize=None)
def _sm_count(index):
    return torch.cuda.get_device_properties(index).multi_processor_count


def kernel_fn(kernel: str):
    """The @triton.jit / @gluon.jit function named `kernel`."""
    from .variants import (GLUON_KERNELS, SWAP_DECODE_KERNEL, SWAP_DECODE_MERGED_KERNEL, SWAP_DECODE_SPLIT_KERNEL,
                           SWAP_DECODE_STREAM_KERNEL, VARLEN_SM90_KERNEL, VARLEN_SM90_NAMES, decode_base_kernel)
    kernel = decode_base_kernel(kernel)  # (session 67: a KV-cache form launches the merged / split kernel)
    if kernel in (SWAP_DECODE_KERNEL, SWAP_DECODE_MERGED_KERNEL, SWAP_DECODE_SPLIT_KERNEL, SWAP_DECODE_STREAM_KERNEL):
        from . import sm90_decode
        return getattr(sm90_decode, kernel)
    if kernel in GLUON_KERNELS or kernel in VARLEN_SM90_NAMES:
        from . import sm90_fwd
        return getattr(sm90_fwd, VARLEN_SM90_KERNEL if kernel in VARLEN_SM90_NAMES else kernel)
    from . import triton_fwd
    return triton_fwd.KERNELS[kernel]


# The builds split across programs (TileConfig.split_kv, with or without packed heads) run a non-causal call as a
# causal one whose diagonal lies past every key (CAUSAL_OFFSET = NO_CAUSAL_OFFSET: query i sees keys j <= i + 2^30, so
# all of them), so the causal and the non-causal variant of each such build launch one binary, which the audit compiles
# and reads once (audit._binary_groups; session 27: 104 of CI's Gluon binaries). Their tiles are not paired when causal
# (one program per tile and part either way), so the grid is the same; the blocks past the last full one are masked in
# both forms. False: the non-causal builds (for comparison).
SPLIT_KV_FULL_AS_CAUSAL = True
NO_CAUSAL_OFFSET = 2 ** 30


def launch_args(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset):
    """(grid, args, kwargs) for `variant` on (B, S, H, D) views."""
    from .variants import GLUON_KERNELS
    c = variant.config
    if variant.kernel in GLUON_KERNELS:
        from . import sm90_fwd
        # the launcher derives the warps (one warpgroup per 64 rows of each consumer): the table must agree
        rows = sm90_fwd.consumer_rows(c.block_m, c.split, c.split_k)
        assert c.num_warps == rows // 16, f"{variant.name}: num_warps disagrees with the tiles"
        if c.split_kv and not causal and SPLIT_KV_FULL_AS_CAUSAL:
            causal, causal_offset = True, NO_CAUSAL_OFFSET
        return sm90_fwd.launch_args(q, k, v, out, lse, softmax_scale, causal, causal_offset, block_m=c.block_m,
                                    block_n=c.block_n, stages=c.num_stages, warp_specialized=True, split=c.split,
                                    pingpong=c.pingpong, persistent=c.persistent, split_k=c.split_k,
                                    q_double=c.q_double, defer_store=c.defer_store, split_kv=c.split_kv,
                                    pv_overlap=c.pv_overlap, paired=not c.unpaired, pack=c.pack,
                                    balance=c.balance, o_regs=c.o_regs, v_stage=c.v_stage,
                                    o_half=c.o_half, light_first=c.light_first, cluster=c.cluster,
                                    maxnreg=c.maxnreg or None)
    from . import triton_fwd
    return triton_fwd.launch_args(variant.kernel, q, k, v, out, lse, softmax_scale, causal, causal_offset, c)


def varlen_launch_args(variant, q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, softmax_scale,
                       window=(-1, -1), softcap=0.0, group=1, splits=1, ws=(None, None), k_stride=1, paged=None):
    """(grid, args, kwargs) for a varlen variant (variants.varlen_variant): q, out (TOTAL_Q, H, D), k, v
    (TOTAL_K, H_KV, D), lse (H, TOTAL_Q), cu_seqlens_* int32 (B + 1); window and softcap as the variant's kernel
    takes them (a local variant reads window; a soft-capping one needs softcap > 0); group: query heads per tile;
    splits and ws (a split variant: parts per tile, 2 or more, and triton_fwd.varlen_workspace); paged (a paged
    variant): (block_table, page_size, pages), k and v then the cache's rows. The combine kernel
    (variants.varlen_combine_variant) takes the attention launch's arguments: its own are derived here."""
    from . import triton_fwd
    from .variants import VARLEN_COMBINES, VARLEN_KERNELS, VARLEN_SM90_KERNELS, VARLEN_SM90_NAMES, \
        VARLEN_SM90_PAGED_KERNELS
    if variant.kernel in VARLEN_SM90_NAMES:
        # (window: read by the local builds only; causal calls may carry it as (-1, 0))
        is_paged = variant.kernel in VARLEN_SM90_PAGED_KERNELS.values()
        local, capped = next(key for key, name in (VARLEN_SM90_PAGED_KERNELS if is_paged else VARLEN_SM90_KERNELS)
                             .items() if name == variant.kernel)
        if group != 1 or splits != 1 or k_stride not in (1, 2) or is_paged != (paged is not None):
            raise ValueError(f"{variant.name}: no grouped tiles or splits; a paged cache exactly with the paged build "
                             f"(paged={paged is not None})")
        if capped and not softcap > 0:
            softcap = 1.0  # a placeholder value (the auditor's): the binary is the same for every softcap
        from . import sm90_fwd
        return sm90_fwd.varlen_launch_args(q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, softmax_scale,
                                           variant.causal, variant.config, k_stride, window if local else None,
                                           softcap if capped else 0.0, paged)
    if variant.kernel in VARLEN_COMBINES.values():
        if (group > 1) != (variant.kernel == VARLEN_COMBINES[True]):
            raise ValueError(f"{variant.name}: group={group} does not match the variant")
        return triton_fwd.varlen_combine_args(q, out, lse, cu_seqlens_q, max_seqlen_q, group, splits, ws,
                                              variant.config)
    local, capped, split, grouped, is_paged, page_blocks = next(key for key, name in VARLEN_KERNELS.items()
                                                                if name == variant.kernel)
    if grouped != (group > 1):
        raise ValueError(f"{variant.name}: group={group} does not match the variant")
    if is_paged != (paged is not None):
        raise ValueError(f"{variant.name}: paged={paged is not None} does not match the variant")
    if page_blocks and paged[1] % variant.config.block_n:
        raise ValueError(f"{variant.name}: page size {paged[1]} is not a multiple of the key block "
                         f"({variant.config.block_n}); the per-key paged build takes it")
    if capped and not softcap > 0:
        softcap = 1.0  # a placeholder value (the auditor's): the binary is the same for every softcap
    if split != (splits > 1):
        raise ValueError(f"{variant.name}: splits={splits} does not match the variant")
    return triton_fwd.varlen_launch_args(q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, softmax_scale,
                                         variant.causal, variant.config, local=local, window=window,
                                         softcap=softcap if capped else 0.0, group=group, splits=splits, ws=ws,
                                         k_stride=k_stride, paged=paged, page_blocks=page_blocks)


class _Pair:
    """The launchers of a split varlen call (attention, then combine), called as one."""
    __slots__ = ("first", "second")

    def __init__(self, first, second):
        self.first, self.second = first, second

    def __call__(self, tensors, scale, device_index):
        self.first(tensors, scale, device_index)
        return self.second(tensors, scale, device_index)


# CUDA's limit on a grid's second axis. The Triton kernels put batch x heads there (the dense kernels B * H, the varlen
# ones sequences x head groups), so a call past it runs as several launches of the same binary, each on a slice of the
# batch: every per-sequence tensor's base moves by whole batch entries (the kernels index within an entry, and where
# a tensor holds absolute rows, as the varlen q and k do, only the offsets and the block table move). Slices start at
# multiples of SLICE_ALIGN entries, so every moved base keeps the 16-byte alignment the binaries are specialised on
# (an int32 offset is 4 bytes; an fp32 lse entry H x S floats). Public: shapes decide. The Gluon kernels' grids are
# one axis (no limit that a call can reach).
MAX_GRID_Y = 65535
SLICE_ALIGN = 4


def batch_slices(batch: int, per_entry: int):
    """[(b0, b1)] slices of `batch` entries whose grids fit MAX_GRID_Y, per_entry programs on the second axis per
    entry (one slice where the whole grid fits)."""
    if batch * per_entry <= MAX_GRID_Y:
        return [(0, batch)]
    step = MAX_GRID_Y // per_entry // SLICE_ALIGN * SLICE_ALIGN
    if step < 1:
        raise ValueError(f"q: {per_entry} heads per batch entry on the kernel grid's second axis; at most "
                         f"{MAX_GRID_Y // SLICE_ALIGN} are supported")
    return [(b0, min(batch, b0 + step)) for b0 in range(0, batch, step)]


def _moved(t, elements):
    """A tensor whose data pointer is t's moved by `elements` (what the launchers read of it), or t itself."""
    if t is None or not elements:
        return t
    return t.as_strided((1,), (1,), t.storage_offset() + elements)


class _Slices:
    """The launchers of a call that runs as batch slices (batch_slices), called as one: slice i's launcher gets
    every tensor moved by b0_i times its elements per batch entry (`moves`, one per tensor of the call; 0: not
    moved). The launchers read only base addresses (their shapes and strides are in the launch keys)."""
    __slots__ = ("parts", "moves")

    def __init__(self, parts, moves):
        self.parts, self.moves = parts, tuple(moves)

    def __call__(self, tensors, scale, device_index):
        moves = self.moves + (0,) * (len(tensors) - len(self.moves))
        for b0, launcher in self.parts:
            result = launcher(tuple(_moved(t, b0 * m) for t, m in zip(tensors, moves)), scale, device_index)
        return result


def launch_varlen(variant, q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, softmax_scale, window=(-1, -1),
                  softcap=0.0, group=1, splits=1, ws=(None, None), combine=None, k_stride=1, paged=None):
    """Launch a varlen variant on the current device through Triton's JIT (its binary is the audited one: the same
    binder, the same specialisation), and with splits > 1 the combine variant `combine` after it. Returns a launcher
    for later calls with the same public metadata (shapes, strides, dtypes, device, max_seqlen_q, group, splits,
    window, softcap, flags, the block table's shape: the caller keys it), called as launcher((q, k, v, out, lse,
    cu_seqlens_q, cu_seqlens_k, block_table or None, WS_O, WS_L), softmax_scale, device_index) (the workspace of that
    call: varlen_workspace); or None where the fast path is off. paged: (block_table, page_size, pages)."""
    from .variants import VARLEN_SM90_NAMES
    batch = cu_seqlens_q.shape[0] - 1
    # (attn_fwd_sm90_varlen puts sequences x heads on the grid's first axis: no slices)
    slices = [(0, batch)] if variant.kernel in VARLEN_SM90_NAMES \
        else batch_slices(batch, q.shape[1] // group)
    if len(slices) > 1:  # sequences [b0, b1): their offsets and block-table rows (q, k, lse, workspace: absolute rows)
        parts = []
        for b0, b1 in slices:
            sub = launch_varlen(variant, q, k, v, out, lse, cu_seqlens_q[b0:b1 + 1],
                                cu_seqlens_k[b0 * k_stride:b1 * k_stride + (k_stride == 1)], max_seqlen_q,
                                softmax_scale, window, softcap, group, splits, ws, combine, k_stride,
                                paged and (paged[0][b0:b1],) + tuple(paged[1:]))
            parts.append((b0, sub))
        if any(sub is None for _, sub in parts):
            return None
        bt_move = paged[0].stride(0) if paged is not None else 0
        return _Slices(parts, (0, 0, 0, 0, 0, 1, k_stride, bt_move))
    tensors = (q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, paged[0] if paged is not None else None) + \
        (tuple(ws) if splits > 1 else ())
    launchers = []
    for var in (variant,) + ((combine,) if splits > 1 else ()):
        grid, args, kwargs = varlen_launch_args(var, q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                                                softmax_scale, window, softcap, group, splits, ws, k_stride,
                                                paged if var is variant else None)
        fn = kernel_fn(var.kernel)
        kernel = fn[grid](*args, **kwargs)
        if q.is_cuda and _fast_path_allowed():
            launchers.append(_make_launcher(fn, kernel, grid, args, kwargs, tensors, softmax_scale,
                                            constant_floats=True))
    if not launchers or any(x is None for x in launchers):
        return None
    return launchers[0] if len(launchers) == 1 else _Pair(*launchers)


_bounds_launchers = {}  # (device, batch, s_new, cache rows, flags) -> kvcache_bounds' _Launcher (or None)
_append_launchers = {}  # kvcache_append's public metadata -> its _Launcher (or None)
_decode_launchers = {}  # sm90_decode's two launches: (kernel, public metadata) -> _Launcher (or None)


def _launch_kept(kept, key, fn, launch_args, tensors, device):
    """Launch fn through the launcher kept under key in `kept` (made by an earlier call with the same public metadata)
    and return it; else through Triton's JIT with launch_args() = (grid, args, kwargs), keep the launcher this makes
    (None where there is no fast path: not tried again) and return None. tensors: the call's tensors, in the order the
    launcher takes them."""
    launcher = kept.get(key)
    if launcher is not None and _fast_path_allowed():
        launcher(tensors, 1.0, device.index)
        return launcher
    grid, args, kwargs = launch_args()
    kernel = fn[grid](*args, **kwargs)
    if device.type == "cuda" and _fast_path_allowed() and key not in kept:
        if len(kept) >= MAX_LAUNCHERS:
            kept.clear()
        kept[key] = _make_launcher(fn, kernel, grid, args, kwargs, tensors, 1.0, constant_floats=True)
    return None


def launch_kvcache_bounds(lens, leftpad, idx, bounds, s_new, sc, paged):
    """Launch triton_fwd.kvcache_bounds on the current device: lens, leftpad, idx (B,) int32, contiguous and 16-byte
    aligned (leftpad, idx None where absent), bounds (2B,) int32. Later calls with the same public metadata take the
    launcher this first one made; it is returned where this call took it (else None)."""
    from . import triton_fwd
    has_pad, has_idx = leftpad is not None, idx is not None
    tensors = (lens, leftpad if has_pad else lens, idx if has_idx else lens, bounds)
    key = (lens.device, lens.shape[0], int(s_new), int(sc), bool(paged), has_pad, has_idx)
    return _launch_kept(_bounds_launchers, key, triton_fwd.kvcache_bounds,
                        lambda: triton_fwd.kvcache_bounds_args(*tensors, s_new, sc, paged, has_pad, has_idx), tensors,
                        lens.device)


def launch_kvcache_append(lens, leftpad, idx, bounds, k_new, v_new, k_rows, v_rows, block_table, sc, page,
                          rotary=None):
    """Launch triton_fwd.kvcache_append on the current device (block_table None: not paged): lens, leftpad, idx (B,)
    int32, contiguous and 16-byte aligned (leftpad, idx None where absent), bounds (2B,) int32, k_new, v_new, the
    cache's rows k_rows, v_rows and the block table with 16-byte aligned bases (any strides). Later calls with the same
    public metadata take the launcher this first one made; it is returned where this call took it (else None).
    rotary: (q, q_out, cos, sin, per_row, interleaved) (kvcache_append_args'), with aligned bases too."""
    from . import triton_fwd
    paged, has_pad, has_idx = block_table is not None, leftpad is not None, idx is not None
    tensors = (lens, leftpad if has_pad else lens, idx if has_idx else lens, bounds, k_new, v_new, k_rows, v_rows,
               block_table if paged else lens)
    key = (lens.device, k_new.dtype, k_new.shape, k_new.stride(), v_new.stride(), k_rows.shape, k_rows.stride(),
           v_rows.stride(), block_table.stride() if paged else None, int(sc), int(page), has_pad, has_idx)
    rot = {}
    if rotary is not None:
        q, q_out, cos, sin, per_row, interleaved = rotary
        tensors += (q, q_out, cos, sin)
        key += (q.shape, q.stride(), q_out.stride(), cos.shape, cos.stride(), bool(per_row), bool(interleaved))
        rot = dict(q=q, q_out=q_out, cos=cos, sin=sin, per_row=per_row, interleaved=interleaved)
    return _launch_kept(_append_launchers, key, triton_fwd.kvcache_append,
                        lambda: triton_fwd.kvcache_append_args(*tensors[:9], sc, page, paged, has_pad, has_idx, **rot),
                        tensors, lens.device)


def launch_equal_guard(out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k):
    """Launch triton_fwd.varlen_equal_guard (after a varlen call's dense run: out (B, S, H, D) and lse (B, H, S))
    through the JIT; returns a launcher for later calls with the same public metadata (the caller keys it), called as
    launcher((out, lse, cu_seqlens_q, cu_seqlens_k), scale, device_index), or None where the fast path is off."""
    from . import triton_fwd
    grid, args, kwargs = triton_fwd.equal_guard_args(out, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                                                     max_seqlen_k)
    fn = triton_fwd.varlen_equal_guard
    kernel = fn[grid](*args, **kwargs)
    if not (out.is_cuda and _fast_path_allowed()):
        return None
    return _make_launcher(fn, kernel, grid, args, kwargs, (out, lse, cu_seqlens_q, cu_seqlens_k), 1.0,
                          constant_floats=True)


class SlidingBase:
    """The base of a sliding TMA descriptor (sm90_fwd.varlen_descriptor): `rows` rows before t's first. What Triton's
    launcher and Gluon's descriptor read of a base (data_ptr, dtype, element_size). The kernel addresses only in-bound
    box rows through it, each a row of t (sm90_fwd, the comment above _slide)."""
    __slots__ = ("tensor", "rows", "dtype")

    def __init__(self, tensor, rows):
        self.tensor, self.rows, self.dtype = tensor, rows, tensor.dtype

    def data_ptr(self):
        return self.tensor.data_ptr() - self.rows * self.tensor.stride(0) * self.tensor.element_size()

    def element_size(self):
        return self.tensor.element_size()


def _slid(t, rows):
    return SlidingBase(t, rows) if rows else t


class _Desc:
    """What Triton's launcher reads of a host tensor descriptor (base, shape, strides, padding): the fast
    path rebuilds only this per call; the block shape and layout are fixed by the compiled kernel."""
    __slots__ = ("base", "shape", "strides", "padding")

    def __init__(self, base, shape, strides, padding):
        self.base, self.shape, self.strides, self.padding = base, shape, strides, padding


# Kernel arguments that are scratch memory of one launch (sm90_fwd.split_kv_workspace): the fast path allocates them
# per call from torch's caching allocator (stream-ordered), as the JIT path does; their shape is a function of the
# launch key. And one drawn afresh for every launch (sm90_fwd.split_kv_nonce).
WORKSPACE_ARGS = ("WS", "FLAGS")
NONCE_ARGS = ("NONCE",)
OUT_ARGS = ("O_PTR",)  # O itself (sm90_fwd O_REG): the call's out
STRIDE_ARGS = ("O_SB", "O_SS", "O_SH")  # its strides (sm90_fwd.O_STRIDE_ARGS; a test keeps the two equal): in the key


class _Workspace:
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype

    def fresh(self, device):
        return torch.empty(self.shape, dtype=self.dtype, device=device)


class _Nonce:
    def fresh(self, device):
        from .sm90_fwd import split_kv_nonce
        return split_kv_nonce()


class _TensorArg:
    """A tensor passed by name after the constexprs (the varlen kernel's block table): the i-th of the call's tensors."""
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class _Launcher:
    """The compiled kernel of one launch key, and how to rebuild its argument list from new tensors.

    Each argument of the first (JIT) launch is recorded as one of: the i-th tensor of (q, k, v, out, lse);
    a descriptor over it (shape and strides kept: they are in the key); the folded softmax scale; or a
    constant (ints and constexprs, all functions of the key)."""

    def __init__(self, kernel, grid, args, tensors, scale, param_values, constant_floats=False):
        self.kernel, self.grid = kernel, tuple(grid) + (1,) * (3 - len(grid))
        self.plan = []
        for a in args:
            if isinstance(a, torch.Tensor):
                self.plan.append(("t", _index(tensors, a)))
            elif hasattr(a, "base") and hasattr(a, "block_shape"):  # (a sliding one: its rows before the tensor)
                self.plan.append(("d", _index(tensors, getattr(a.base, "tensor", a.base)), list(a.shape),
                                  list(a.strides), a.padding, getattr(a.base, "rows", 0)))
            elif isinstance(a, float):
                if a == float(scale) * LOG2E:
                    self.plan.append(("s",))
                elif constant_floats:  # the caller keys its launchers on them (the varlen API's plans)
                    self.plan.append(("c", a))
                else:
                    raise _NoFastPath("a float argument other than the folded softmax scale")
            elif isinstance(a, (int, bool)):
                self.plan.append(("c", a))
            else:
                raise _NoFastPath(f"argument of type {type(a).__name__}")
        # constexprs and defaults after the positional arguments, in the kernel's parameter order; a _Workspace
        # or _Nonce among them is made afresh for every call (sm90_fwd SPLIT_KV's WS, FLAGS and NONCE)
        self.tail = tuple(param_values[len(args):])
        self.per_call = any(isinstance(t, (_Workspace, _Nonce, _TensorArg)) for t in self.tail)
        # With Triton's C launch function and its descriptor metadata, descriptors are passed pre-expanded:
        # raw = (launch, expand), desc_meta = {plan index: metadata}; else every call goes through kernel.run
        self.raw, self.desc_meta = None, None
        found = _descriptor_launch(kernel)
        descs = [i for i, p in enumerate(self.plan) if p[0] == "d"]
        if found is not None and len(found[1]) == len(descs):
            from triton.backends.nvidia import driver
            self.raw, self.desc_meta = (found[0], driver.make_tensordesc_arg), dict(zip(descs, found[1]))
        self.descs = {}  # (plan index, base address) -> the descriptor's expanded kernel arguments
        # No descriptor and no scratch: the C launch function itself, with the arguments in a template whose tensor
        # slots take each call's base addresses (host time: session 35)
        self.template = None
        run = getattr(kernel, "run", None)
        fresh = any(isinstance(t, (_Workspace, _Nonce)) for t in self.tail)
        if not descs and not fresh and callable(getattr(run, "launch", None)) \
                and not getattr(run, "global_scratch_size", 1) and not getattr(run, "profile_scratch_size", 1):
            n = len(self.plan)
            self.template = [p[1] if p[0] == "c" else None for p in self.plan] + \
                [None if isinstance(t, _TensorArg) else t for t in self.tail]
            self.slots = tuple((i, p[1]) for i, p in enumerate(self.plan) if p[0] == "t") + \
                tuple((n + i, t.index) for i, t in enumerate(self.tail) if isinstance(t, _TensorArg))
            self.scale_slots = tuple(i for i, p in enumerate(self.plan) if p[0] == "s")

    def __call__(self, tensors, scale, device_index):
        if self.template is not None:  # tensors: base addresses as ints (the launch function reads nothing else)
            vals = self.template.copy()
            for i, j in self.slots:
                t = tensors[j]
                ptr = t if type(t) is int else t.data_ptr()
                if ptr % 16:
                    _misaligned(ptr)
                vals[i] = ptr
            for i in self.scale_slots:
                vals[i] = float(scale) * LOG2E
            k = self.kernel
            run = k.run
            run.launch(*self.grid, _current_stream(device_index), k.function, run.launch_cooperative_grid,
                       run.launch_pdl, None, None, k.packed_metadata, None, None, None, *vals)
            return k
        vals = []
        raw = self.raw
        for i, p in enumerate(self.plan):
            kind = p[0]
            if kind == "t" or kind == "d":
                t = tensors[p[1]]
                ptr = _address(t)
                if ptr % 16:
                    _misaligned(ptr)
                if kind == "t":
                    vals.append(ptr)
                elif raw is None:
                    vals.append(_Desc(_slid(t, p[5]), p[2], p[3], p[4]))
                else:
                    vals.extend(self._descriptor(i, t, ptr))
            elif kind == "s":
                vals.append(float(scale) * LOG2E)
            else:
                vals.append(p[1])
        tail = self.tail
        if self.per_call:
            dev = tensors[0].device
            tail = [t.fresh(dev) if isinstance(t, (_Workspace, _Nonce)) else
                    _aligned(tensors[t.index]) if isinstance(t, _TensorArg) else t for t in tail]
        if raw is None:
            return run_compiled(self.kernel, self.grid, device_index, *vals, *tail)
        k = self.kernel
        raw[0](*self.grid, _current_stream(device_index), k.function, k.run.launch_cooperative_grid,
               k.run.launch_pdl, None, None, k.packed_metadata, None, None, None, *vals, *tail)
        return k

    def _descriptor(self, i, t, ptr):
        """The kernel arguments of plan entry i's TMA descriptor over t: Triton encodes a CUtensorMap on
        every launch (cuTensorMapEncodeTiled); here it is encoded once per base address. The map holds
        only the address, shape, strides and the kernel's block and swizzle (shape and strides are in the
        launch key), so one encoded for this address is valid whatever the tensor's contents. Public:
        the cache is keyed by addresses, never by data."""
        key = (i, ptr)
        hit = self.descs.get(key)
        if hit is None:
            if len(self.descs) >= MAX_DESCRIPTORS:
                self.descs.clear()
            p = self.plan[i]
            hit = self.descs[key] = self.raw[1](_Desc(_slid(t, p[5]), p[2], p[3], p[4]), self.desc_meta[i])
        return hit


def _misaligned(ptr):
    # the kernel was specialised on 16-byte aligned bases
    raise ValueError(f"the kernels need 16-byte aligned tensors, got offset {ptr % 16}")


def _address(t):
    """A pointer argument's base address: a tensor's, or an int as given (a kept launcher's caller may pass base
    addresses: the API plans' scratch buffers)."""
    return t if type(t) is int else t.data_ptr()


def _aligned(t):
    """t (a tensor or a base address, _address), checked 16-byte aligned."""
    ptr = _address(t)
    if ptr % 16:
        _misaligned(ptr)
    return t


MAX_DESCRIPTORS = 64  # encoded TMA descriptors kept per launcher (per base address and descriptor)


def _descriptor_launch(kernel):
    """(Triton 3.6's C launch function under its descriptor-expanding wrapper, the metadata of each TMA
    descriptor parameter in order) for a compiled kernel whose launcher has that wrapper and no scratch
    buffers, else None. With it, _Launcher passes each descriptor already expanded (an encoded CUtensorMap,
    then the shape and strides), as the wrapper would."""
    run = getattr(kernel, "run", None)
    try:
        cells = inspect.getclosurevars(run.launch).nonlocals
        launch, metas = cells["launcher"], cells["tensordesc_meta"]
        if "tensordesc_indices" not in cells or metas is None or not callable(launch) \
                or run.global_scratch_size or run.profile_scratch_size:
            return None
        return launch, list(metas)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def run_compiled(kernel, grid, device_index, *args):
    """Launch a CompiledKernel on the current stream of that device with its full parameter list (runtime
    arguments, then constexprs), as Triton's JIT does after binding; no launch hooks (see no_launch_hooks)."""
    kernel.run(grid[0], grid[1], grid[2], _current_stream(device_index), kernel.function, kernel.packed_metadata,
               None, None, None, *args)
    return kernel


def _current_stream(device_index):
    """The raw handle of the current stream on that device (what Triton's JIT launches on)."""
    return torch._C._cuda_getCurrentRawStream(device_index)


class _NoFastPath(Exception):
    pass


def _index(tensors, t):
    for i, x in enumerate(tensors):
        if x is t:
            return i
    raise _NoFastPath("an argument tensor that is not one of q, k, v, out, lse")


def _launch_key(variant, q, k, v, out, lse, causal, causal_offset):
    """Every public value Triton's specialisation of this variant's arguments can depend on. Pointer
    alignment is not in it: every base must be 16-byte aligned (the API checks it; _Launcher re-checks
    descriptor bases), and 16 is the most Triton specialises on."""
    return (variant.name, q.dtype, q.device, q.shape, k.shape, lse.shape, q.stride(), k.stride(), v.stride(),
            out.stride(), lse.stride(), bool(causal), int(causal_offset))


def no_launch_hooks() -> bool:
    """No launch hook is installed (Triton 3.6 keeps them in HookChains, empty by default; a profiler such as
    proton adds to them): the direct launch passes none, so it is used only then."""
    return all(h is None or not getattr(h, "calls", True)
               for h in (knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook))


def _fast_path_allowed():
    return _FAST and no_launch_hooks() and not knobs.runtime.debug and not knobs.compilation.instrumentation_mode


def launch(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset):
    """Launch `variant` on the current device (the caller's context selects q's device)."""
    return _launch(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset)[0]


def launch_keeping_launcher(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset):
    """launch(), then the launcher cached for this call's launch key, or None (the fast path is off, or this
    launch cannot take it): the API keeps it in its call plan, and the key is computed once per call."""
    _, key = _launch(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset)
    return None if key is None else _launchers.get(key)


def _launch(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset):
    """(what the launch returned, its launch key or None where the fast path is off)."""
    tensors = (q, k, v, out, lse)
    key = None
    if q.is_cuda and _fast_path_allowed():
        key = _launch_key(variant, q, k, v, out, lse, causal, causal_offset)
        launcher = _launchers.get(key)
        if launcher is not None:
            return launcher(tensors, softmax_scale, q.device.index), key
    grid, args, kwargs = launch_args(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset)
    if len(grid) > 1 and grid[1] > MAX_GRID_Y:  # batch slices (every tensor's first dimension is the batch)
        parts = []
        for b0, b1 in batch_slices(q.shape[0], grid[1] // q.shape[0]):
            kernel, sub_key = _launch(variant, *(t[b0:b1] for t in tensors), softmax_scale, causal, causal_offset)
            parts.append((b0, None if sub_key is None else _launchers.get(sub_key)))
        if key is not None and all(sub is not None for _, sub in parts):
            _launchers[key] = _Slices(parts, (t.stride(0) for t in tensors))
        return kernel, key
    fn = kernel_fn(variant.kernel)
    launcher = None
    if kwargs.get("CLUSTER"):  # clusters of two CTAs (sm90_fwd CLUSTER): launched by their own launcher only
        from . import sm90_fwd
        launcher = sm90_fwd.cluster_launcher(grid, args, kwargs, tensors, softmax_scale)
        kernel = launcher(tensors, softmax_scale, q.device.index)
    else:
        kernel = fn[grid](*args, **kwargs)
    if key is not None and key not in _launchers:
        if len(_launchers) >= MAX_LAUNCHERS:  # many distinct shapes (say, every sequence length): start over
            _launchers.clear()
        _launchers[key] = launcher or _make_launcher(fn, kernel, grid, args, kwargs, tensors, softmax_scale)
    return kernel, key


def _make_launcher(fn, kernel, grid, args, kwargs, tensors, softmax_scale, constant_floats=False):
    """A _Launcher for this launch, or None (then every call goes through the JIT)."""
    if kernel is None or not hasattr(kernel, "packed_metadata") or hasattr(kernel, "result"):
        return None
    try:
        params = list(fn.params)
        if len(args) > len(params) or any(p.is_constexpr for p in params[:len(args)]):
            return None
        tail = []
        for p in params[len(args):]:
            if not p.is_constexpr:  # passed by name: a per-call workspace or nonce, else no fast path
                t = kwargs.get(p.name, p.default)
                if t is None:  # not passed (None: Triton specialises it away)
                    tail.append(None)
                elif p.name in WORKSPACE_ARGS and isinstance(t, torch.Tensor):
                    tail.append(_Workspace(tuple(t.shape), t.dtype))
                elif p.name in NONCE_ARGS and isinstance(t, int):
                    tail.append(_Nonce())
                elif p.name in OUT_ARGS and isinstance(t, torch.Tensor):
                    tail.append(_TensorArg(_index(tensors, t)))
                elif p.name in STRIDE_ARGS and type(t) is int:
                    tail.append(t)
                elif constant_floats and isinstance(t, torch.Tensor):  # the varlen API keys its launchers on shapes
                    tail.append(_TensorArg(_index(tensors, t)))
                elif constant_floats and type(t) is int:  # (and on every such int: shapes, strides, page sizes)
                    tail.append(t)
                else:
                    return None
            elif p.name in kwargs:
                tail.append(kwargs[p.name])
            elif p.default is not inspect.Parameter.empty:
                tail.append(p.default)
            else:
                return None
        return _Launcher(kernel, grid, args, tensors, softmax_scale, list(args) + tail, constant_floats)
    except _NoFastPath:
        return None


def clear_launchers():
    _launchers.clear()
    _bounds_launchers.clear()
    _append_launchers.clear()
    _decode_launchers.clear()
