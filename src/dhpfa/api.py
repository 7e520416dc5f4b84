"""User-facing functions: argument checks, layouts, dispatch to a kernel.

Every check here reads only public metadata (shapes, strides, dtypes, devices, flags), never tensor
values: a check on values (say, for NaN) would make the call's time depend on the data. Non-finite
inputs therefore propagate to the output, as in flash-attn and PyTorch.
"""
import contextlib
import math
import os
from numbers import Integral, Real

import torch

from .kernels import variants
from .settings import AUTOTUNE_ENV, CACHE_ENV, INTERPRET_ENV

_SUPPORTED = "float16 or bfloat16"


def _interpreter_active() -> bool:
    return os.environ.get(INTERPRET_ENV, "0") == "1"


def _env_switches_reader():
    """A function returning the environment switches a call plan depends on (INTERPRET_ENV, CACHE_ENV, AUTOTUNE_ENV),
    for the plans' signatures: read from os.environ's own mapping where CPython keeps one (three dict lookups, no key
    encoding: host time, session 35), else through os.environ.get. Either form sees os.environ's changes."""
    data, encode = getattr(os.environ, "_data", None), getattr(os.environ, "encodekey", None)
    if type(data) is dict and callable(encode):
        try:
            a, b, c = (encode(n) for n in (INTERPRET_ENV, CACHE_ENV, AUTOTUNE_ENV))
            return lambda: (data.get(a), data.get(b), data.get(c))
        except (TypeError, ValueError):
            pass
    env = os.environ
    return lambda: (env.get(INTERPRET_ENV), env.get(CACHE_ENV), env.get(AUTOTUNE_ENV))


_env_switches = _env_switches_reader()


def _check_tensor(name, t, ndim, layout):
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(t).__name__}")
    if t.dim() != ndim:
        raise ValueError(f"{name}: expected a {ndim}-D tensor {layout}, got shape {tuple(t.shape)}")
    if any(s == 0 for s in t.shape):
        raise ValueError(f"{name}: every dimension must be >= 1, got shape {tuple(t.shape)}")


def _check_tensors_and_causal(q, k, v, causal, ndim, layout, names=("q", "k", "v")):
    """The first checks of flash-attn-style calls: q, k, v tensors of `ndim` dims, causal a bool."""
    for name, t in zip(names, (q, k, v)):
        _check_tensor(name, t, ndim, layout)
    if not isinstance(causal, bool):
        raise TypeError(f"causal: expected a bool, got {type(causal).__name__}")


def _check_inputs(q, k, v, layout, names=("q", "k", "v"), wide=None):
    """Checks on (B, S, H, D) views; `layout` and `names` are the caller's, for messages. wide: a list that collects
    (name, span) of the tensors past 32-bit offsets (_check_strides) instead of refusing them (the dense kernels that
    address q, k, v and out through TMA descriptors run them: _refuse_wide); None: refused here."""
    nq, nk, nv = names
    interp = _interpreter_active()
    for name, t in ((nq, q), (nk, k), (nv, v)):
        if interp:
            if not t.is_cpu:
                raise ValueError(f"{name}: under TRITON_INTERPRET=1 tensors must be on the CPU, got {t.device}")
        elif not t.is_cuda:
            raise ValueError(f"{name}: expected a CUDA tensor, got device {t.device} "
                             "(set TRITON_INTERPRET=1 to run the kernel on CPU tensors for testing)")
        if t.get_device() != q.get_device():
            raise ValueError(f"{name}: expected device {q.device} (that of {nq}), got {t.device}")
    allowed = variants.DTYPES + ((torch.float32,) if interp else ())
    if q.dtype not in allowed:
        extra = " (float32 only under TRITON_INTERPRET=1)" if not interp else " or float32"
        raise TypeError(f"{nq}: expected dtype {_SUPPORTED}{extra}, got {q.dtype}")
    for name, t in ((nk, k), (nv, v)):
        if t.dtype != q.dtype:
            raise TypeError(f"{name}: expected dtype {q.dtype} (that of {nq}), got {t.dtype}")

    b, sq, h, d = q.shape
    _, sk, hk, _ = k.shape
    if d not in variants.HEAD_DIMS:
        raise ValueError(f"{nq}: head_dim {d} is not supported; expected one of {variants.HEAD_DIMS}")
    if k.shape[0] != b or v.shape[0] != b:
        raise ValueError(f"{nk}, {nv}: expected batch size {b} (that of {nq}), got {nk} {k.shape[0]}, {nv} {v.shape[0]}")
    if k.shape[3] != d or v.shape[3] != d:
        raise ValueError(f"{nk}, {nv}: expected head_dim {d} (that of {nq}), got {nk} {k.shape[3]}, {nv} {v.shape[3]}")
    if tuple(v.shape) != tuple(k.shape):
        raise ValueError(f"{nv}: expected the shape of {nk} {layout} = {_fmt(k, layout)}, got {_fmt(v, layout)}")
    if h % hk != 0:
        raise ValueError(f"{nk}: number of key/value heads ({hk}) must divide the number of query heads ({h})")

    for name, t in ((nq, q), (nk, k), (nv, v)):
        _check_strides(name, t, layout, wide)
    if wide is not None and sq * h * d >= OFFSET_LIMIT:  # the output the API allocates: (S, H, D) per batch entry
        wide.append(("out", sq * h * d))
    return b, sq, sk, h, hk, d


def _fmt(t, layout):
    # t is a (B, S, H, D) view; report it in the caller's layout.
    b, s, h, d = t.shape
    return str((b, h, s, d) if layout.startswith("(batch, heads") else (b, s, h, d))


# Offsets within a batch entry (and strides) the pointer kernels take in 32 bits (the varlen kernel: within a tensor,
# and its split workspace). The TMA-descriptor kernels (variants.DESCRIPTOR_KERNELS) have none: the copy engine computes
# q, k, v and O addresses from 32-bit coordinates and 64-bit strides, and their LSE offsets are 64-bit; long-context
# calls past it (a batch entry of 2^31 elements: 512K tokens x 32 heads x 128) run on them.
OFFSET_LIMIT = 2 ** 31
TMA_STRIDE_BYTES = 2 ** 40  # TMA's limit on a descriptor's strides


def _check_strides(name, t, layout, wide=None):
    """t is a (B, S, H, D) view; messages speak of the caller's dims and strides. A tensor past 32-bit offsets is
    refused, or (wide a list) recorded in `wide` as (name, span)."""
    st, shape = t.stride(), t.shape

    def caller(i=None):
        order = (0, 2, 1, 3) if layout.startswith("(batch, heads") else (0, 1, 2, 3)
        return order[i] if i is not None else tuple(st[j] for j in order)
    if st[3] != 1:
        raise ValueError(f"{name}: the last (head_dim) dimension must be contiguous (stride 1), "
                         f"got strides {caller()}; call .contiguous() first")
    if t.data_ptr() % 16 != 0:
        raise ValueError(f"{name}: data pointer must be 16-byte aligned, got offset "
                         f"{t.data_ptr() % 16} bytes; call .contiguous() first")
    for dim in range(3):
        # The variants are compiled for strides divisible by 16 elements (Triton's 16-specialisation).
        if shape[dim] > 1 and st[dim] % 16 != 0:
            raise ValueError(f"{name}: stride of dimension {caller(dim)} must be a multiple of 16 elements, "
                             f"got {st[dim]} (strides {caller()}); call .contiguous() first")
    span = (shape[1] - 1) * st[1] + (shape[2] - 1) * st[2] + shape[3]
    if max(st) * t.element_size() >= TMA_STRIDE_BYTES:
        raise ValueError(f"{name}: strides {caller()} reach {max(st) * t.element_size()} bytes; expected below 2**40 "
                         "(the copy engine's limit)")
    if span >= OFFSET_LIMIT or max(st) >= OFFSET_LIMIT:
        if wide is None:
            _refuse_wide(name, span)
        wide.append((name, span))


def _refuse_wide(name, span):
    raise ValueError(f"{name}: one batch entry spans {span} elements; the kernel indexes within a "
                     "batch entry with 32-bit offsets (limit 2**31 - 1)")


def _check_scale(scale, head_dim, argname):
    if scale is None:
        return 1.0 / math.sqrt(head_dim)
    if isinstance(scale, bool) or not isinstance(scale, Real):
        raise TypeError(f"{argname}: expected a Python float or None, got {type(scale).__name__}")
    if not (math.isfinite(float(scale)) and scale > 0):
        # > 0: the kernels fold the scale into one FFMA per score, which needs max(s*x) = s*max(x).
        raise ValueError(f"{argname}: expected a finite number > 0, got {scale}")
    return float(scale)


def _check_no_grad(q, k, v):
    if torch.is_grad_enabled() and (q.requires_grad or k.requires_grad or v.requires_grad):
        raise RuntimeError("q/k/v require grad, but dhpfa has no backward pass yet: "
                           "run under torch.no_grad() or pass detached tensors")


def _empty(shape, dtype, device):
    """Every output buffer comes from here (tests poison it to catch unwritten elements)."""
    return torch.empty(shape, dtype=dtype, device=device)


class _Plan:
    """What every call with one signature (argument types, shapes, strides, dtypes, devices, flags and the
    environment switches the choice reads: public metadata only) needs once its checks have passed: the
    variant, the softmax scale, the causal offset, the causal flag the kernel runs with, the query heads packed
    per key/value head (pack_gqa; 0 where not packed), the parts of the swapped-GEMM decode kernel (0 where another
    kernel runs; variants.swap_decode_parts; the program count where the stream build runs: swap_decode_stream), and
    the launcher the dispatcher made for it."""
    __slots__ = ("variant", "scale", "offset", "causal", "pack", "generation", "launcher", "decode_parts")

    def __init__(self, variant, scale, offset, generation, causal, pack=0, decode_parts=0):
        self.variant, self.scale, self.offset, self.generation = variant, scale, offset, generation
        self.causal, self.pack, self.decode_parts = causal, pack, decode_parts
        self.launcher = None


_PLANS = {}       # call signature -> _Plan: a repeated call skips the metadata checks and the choice
MAX_PLANS = 1024  # many distinct signatures (say, every sequence length): start over
_tune = None      # dhpfa.tune once the first GPU call has imported it (it loads the kernels)


def _signature(kind, q, k, v, causal, scale, extra=None):
    """The call's public metadata, or None where the checks must run (an argument not a plain tensor).
    The scale's type is in it (1 and 1.0 are equal keys otherwise); a flag that is not a bool, or a scale
    that is not a float, int or None, always takes the checks (and their errors)."""
    if type(q) is not torch.Tensor or type(k) is not torch.Tensor or type(v) is not torch.Tensor \
            or type(causal) is not bool or not (scale is None or type(scale) in (float, int)):
        return None
    return (kind, q.shape, q.stride(), q.dtype, q.device, k.shape, k.stride(), k.dtype, k.device, v.shape,
            v.stride(), v.dtype, v.device, causal, type(scale), scale, extra, _env_switches())


def _cached_plan(sig, q, k, v):
    """The plan for `sig` where one exists and still holds: the tuner has not chosen again since, and the
    tensors' bases are 16-byte aligned (checked per call: addresses change; a misaligned one takes the
    checks' path and its error)."""
    if sig is None:
        return None
    plan = _PLANS.get(sig)
    if plan is None or (plan.generation is not None and plan.generation != _tune.generation) \
            or (q.data_ptr() | k.data_ptr() | v.data_ptr()) % 16:
        return None
    return plan


# One query per sequence with grouped-query heads (decode): the g = H / H_kv query heads that share a key/value head
# run as g rows of one query tile over H_kv heads (pack_gqa), so each key/value block is read and multiplied once
# per group, not once per query head. flash-attn's `seqlenq_ngroups_swapped` does the same. With 2-32 queries per
# sequence (speculative decoding's drafts) the kernel packs variants.pack_heads heads of a group per tile itself
# (variants.packed_variant, sm90_fwd PACK), where the key split rules give the packed grid a split. Set False to
# compare.
PACK_GQA_DECODE = True


def pack_gqa(sq, sk, h, hk, causal, causal_offset) -> int:
    """g = h // hk where one query per sequence can run as g rows over hk heads, else 0. Rows of one packed tile are
    one query position, so a causal mask applies only where that query sees every key (flash-attn's bottom-right
    alignment; SDPA's top-left is_causal with seq_k > 1 hides all but key 0: not packed). Public: shapes, flags."""
    if not PACK_GQA_DECODE or sq != 1 or h == hk or (causal and causal_offset < sk - 1):
        return 0
    return h // hk


def mha_decode(sq, sk, h, hk, causal, causal_offset) -> int:
    """1 where a one-query call without grouped heads (MHA decode: H = H_KV) may take the swapped-GEMM decode kernels as
    a group of one (variants.SWAP_DECODE_MIN_GROUP, session 66), else 0; the causal condition as pack_gqa's. Public."""
    if sq != 1 or h != hk or (causal and causal_offset < sk - 1) or variants.SWAP_DECODE_MIN_GROUP > 1:
        return 0
    return 1


def packed_views(q, out, lse, g):
    """(q, out, lse) of a (B, 1, H, D) call as (B, g, H // g, D) views over the same memory, the g query heads of a
    key/value head as its g rows (head hk * g + i is row i of head hk), and lse (B, H, 1) as (B, H // g, g)."""
    b, _, h, d = q.shape

    def rows(t):
        sb, _, sh, sd = t.stride()
        return t.as_strided((b, g, h // g, d), (sb, sh, g * sh, sd), t.storage_offset())
    return rows(q), rows(out), lse.view(b, h // g, g)


def _new_plan(sig, q, k, causal, scale, causal_offset, wide=()):
    """Choose the variant for checked (B, S, H, D) views, and keep the plan under `sig`. wide: (name, span) of the
    tensors past 32-bit offsets (_check_inputs): such a call runs on a TMA-descriptor kernel (variants.
    DESCRIPTOR_KERNELS; where the choice is the pointer kernel, the same head dim's 64-row TMA tiles, SM90_SHORT),
    else it is refused naming the tensor."""
    global _tune
    b, sq, h, d = q.shape
    g = pack_gqa(sq, k.shape[1], h, k.shape[2], causal, causal_offset)
    if g:  # the kernel runs g rows (one query position each) over the key/value heads, every key visible
        sq, h, causal, causal_offset = g, k.shape[2], False, k.shape[1] - g
    if _interpreter_active():
        plan = _Plan(variants.select(q.dtype, d, causal, True, seq_k=k.shape[1]), scale, causal_offset, None,
                     causal, g)
    else:  # the tuned choice for this class where the cache has one, else the heuristic default
        from . import tune
        _tune = tune
        rows = variants.FEW_PROGRAMS_ROWS
        # keys any row can see: with causal masking aligned so that the last row sees sq + causal_offset keys
        # (top-left, as SDPA's is_causal, with seq_q < seq_k: the rest are masked for every row)
        seq_k = k.shape[1]
        if causal:
            seq_k = max(1, min(seq_k, sq + causal_offset))
        variant = None
        one = g or mha_decode(sq, k.shape[1], h, k.shape[2], causal, causal_offset)  # the decode kernels' group
        if one and _is_sm90(q.device):  # one query per sequence: the swapped-GEMM decode kernel where its rule says
            from .kernels import dispatch
            sms = dispatch.sm_count(q.device)
            choice = variants.decode_choice(q.dtype, d, b, one * k.shape[2], k.shape[2], k.shape[1], sms)
            if choice:  # (TMA descriptors: past 32-bit offsets too)
                return _keep_plan(sig, _Plan(choice[0], scale, causal_offset, None, causal, g, choice[1]))
        if PACK_GQA_DECODE and not g and _is_sm90(q.device):  # 2-32 queries: the group's heads in one tile's rows
            from .kernels import dispatch
            variant = variants.packed_variant(q.dtype, d, causal, sq, seq_k, h, k.shape[2], b,
                                              dispatch.sm_count(q.device))
        if variant is None:
            variant = tune.choose(q.dtype, d, causal, seq_k, q.device, sm90=_is_sm90(q.device),
                                  programs=b * h * ((sq + rows - 1) // rows), seq_q=sq)
        plan = _Plan(variant, scale, causal_offset, tune.generation, causal, g)
    if wide:
        descriptors = plan.variant.kernel in variants.DESCRIPTOR_KERNELS
        if _interpreter_active():  # (the tests, with OFFSET_LIMIT lowered)
            if not descriptors:
                _refuse_wide(*wide[0])
        elif not _is_sm90(q.device):  # elsewhere a descriptor may be lowered to pointer arithmetic
            _refuse_wide(*wide[0])
        elif not descriptors:
            plan.variant = variants.Variant(*variants.SM90_SHORT[d], q.dtype, d, plan.causal)
            plan.generation = None  # not the tuner's choice: kept whatever it chooses later
    return _keep_plan(sig, plan)


def _keep_plan(sig, plan):
    """Keep `plan` under `sig` (None: keep nothing; at MAX_PLANS signatures start over) and return it."""
    if sig is not None:
        if len(_PLANS) >= MAX_PLANS:
            _PLANS.clear()
        _PLANS[sig] = plan
    return plan


def _on_device(q):
    """The context to launch in: the tensors' GPU, not the current one (switching only when they differ: host time)."""
    if q.is_cuda and q.device.index != torch.cuda.current_device():
        return torch.cuda.device(q.device)
    return contextlib.nullcontext()


def _forward(plan, q, k, v, out):
    """q, k, v, out: (B, S, H, D) views. Returns lse of shape (B, H, Sq), float32."""
    b, sq, h, d = q.shape
    if plan.decode_parts:  # (B, 1, H, D) as they are: the kernel reads the group's query heads itself
        lse_t = _empty((h, b), torch.float32, q.device)  # (the combine's layout; returned as a (B, H, 1) view)
        from .kernels import dispatch
        with _on_device(q):
            kept = plan.launcher
            stream = plan.variant.kernel == variants.SWAP_DECODE_STREAM_KERNEL
            if kept is not None and dispatch._fast_path_allowed():  # (the stream build's Kept takes no offsets)
                kept(q, k, v, out, lse_t, None if stream else _dense_offsets(q.device, b, 1), q.device.index)
            elif stream:
                from .kernels import sm90_decode
                plan.launcher = sm90_decode.stream_forward(q, k, v, out, plan.scale, plan.decode_parts, lse_t,
                                                           config=plan.variant.config,
                                                           pair_units=variants.stream_pair_units(plan.variant))
            else:
                from .kernels import sm90_decode
                cfg = variants.SWAP_DECODE_CONFIG
                plan.launcher = sm90_decode.forward(q, k, v, out, plan.scale, plan.decode_parts, cfg.block_n,
                                                    cfg.num_stages, lse_t, _dense_offsets(q.device, b, 1),
                                                    merged=plan.variant.kernel in (variants.SWAP_DECODE_MERGED_KERNEL,
                                                                                   variants.SWAP_DECODE_SPLIT_KERNEL))
        return lse_t.t().unsqueeze(-1)
    lse = _empty((b, h, sq), torch.float32, q.device)
    lse_k, causal = lse, plan.causal
    if plan.pack:
        q, out, lse_k = packed_views(q, out, lse, plan.pack)
    from .kernels import dispatch  # kernels load at first call: TRITON_INTERPRET is read when they are defined
    with _on_device(q):
        launcher = plan.launcher
        if launcher is not None and dispatch._fast_path_allowed():
            launcher((q, k, v, out, lse_k), plan.scale, q.device.index)
        else:
            plan.launcher = dispatch.launch_keeping_launcher(plan.variant, q, k, v, out, lse_k, plan.scale, causal,
                                                             plan.offset)
    return lse


_SM90 = {}


def _is_sm90(device) -> bool:
    """Hopper (compute capability 9.0): the Gluon kernel's target. Public: a property of the machine.
    (Interpreter runs use CPU tensors, and variants.select takes the interpreter branch first.)"""
    if device.type != "cuda":
        return False
    idx = device.index if device.index is not None else torch.cuda.current_device()
    if idx not in _SM90:
        _SM90[idx] = torch.cuda.get_device_capability(idx) == (9, 0)
    return _SM90[idx]


def _check_flash_options(dropout_p, window_size, softcap, alibi_slopes, causal):
    """flash-attn's options, checked (public: arguments, never tensor values). Dropout and ALiBi are not implemented:
    any value that would change the result gets an error that names it (nothing silently ignored). Returns the
    local window and soft-cap the call runs with: (local, (left, right), softcap), where local is False when the
    window hides nothing beyond the causal mask (right is then -1, or 0 with causal) and a negative side is
    unbounded; causal calls with a window carry causality as right = 0, as in flash-attn."""
    order = " (flash-attn's argument order: q, k, v, dropout_p, softmax_scale, causal; pass the rest by keyword)"
    if isinstance(dropout_p, bool) or not isinstance(dropout_p, Real):
        raise TypeError(f"dropout_p: expected a float, got {type(dropout_p).__name__}{order}")
    if dropout_p != 0:
        raise NotImplementedError(f"dropout_p: dropout is not supported (dhpfa is an inference forward); expected "
                                  f"0.0, got {dropout_p}{order}")
    try:
        left, right = window_size
        if isinstance(left, bool) or isinstance(right, bool) or not isinstance(left, Integral) \
                or not isinstance(right, Integral):
            raise TypeError
    except (TypeError, ValueError):
        raise TypeError(f"window_size: expected a pair of ints (left, right), got {window_size!r}") from None
    left, right = max(int(left), -1), max(int(right), -1)
    if causal:
        right = 0
    if isinstance(softcap, bool) or not isinstance(softcap, Real):
        raise TypeError(f"softcap: expected a float, got {type(softcap).__name__}")
    if not (math.isfinite(float(softcap)) and softcap >= 0):
        raise ValueError(f"softcap: expected a finite number >= 0 (0: off), got {softcap}")
    if alibi_slopes is not None:
        raise NotImplementedError("alibi_slopes: ALiBi biases are not supported; expected None")
    return left >= 0 or (right >= 0 and not causal), (left, right), float(softcap)


def _loosen_window(local, window, causal, sq, sk):
    """(local, window, causal) for a call of sq queries and sk keys: a window side that hides nothing at these lengths
    becomes unbounded (left >= sk - 1: every query's lower bound i + sk - sq - left is <= 0; right >= sq - 1: every
    upper bound i + sk - sq + right is >= sk - 1), and a window (-1, 0) without causal is the causal mask. A call whose
    window then hides nothing runs on the dense kernels (the Hopper builds on sm_90) instead of the varlen kernel.
    Public: the window and the shapes."""
    if not local:
        return local, window, causal
    left, right = window
    if left >= sk - 1:
        left = -1
    if not causal and right >= max(sq - 1, 0):
        right = -1
    if not causal and left < 0 and right == 0:
        causal = True
    return left >= 0 or (right >= 0 and not causal), (left, right), causal


_ARANGE = {}  # (device, batch, seqlen) -> int32 offsets 0, S, 2S, ..., B*S (public: shapes)


def _dense_offsets(device, b, s):
    key = (device, b, s)
    cu = _ARANGE.get(key)
    if cu is None:
        cu = _keep_constant(key, torch.arange(0, (b + 1) * s, s, dtype=torch.int32, device=device))
    return cu


def _full_lengths(device, b, n):
    """A (b,) int32 tensor of n on the device (flash_attn_with_kvcache's int or absent cache_seqlens), kept: the
    kernels only read it."""
    key = (device, b, n, "lens")
    lens = _ARANGE.get(key)
    if lens is None:
        lens = _keep_constant(key, torch.full((b,), n, dtype=torch.int32, device=device))
    return lens


def _keep_constant(key, t):
    """Keep a read-only tensor of public values under key, unless made during a CUDA graph's capture (its fill is then
    only recorded: an eager call could read it before any replay has run it)."""
    if not (t.is_cuda and torch.cuda.is_current_stream_capturing()):
        if len(_ARANGE) >= MAX_PLANS:
            _ARANGE.clear()
        _ARANGE[key] = t
    return t


def _batched_varlen(q, k_rows, v_rows, cu_k, max_k, softmax_scale, causal, local, window, cap, k_stride=1,
                    paged=None, want_lse=True, record=None, num_splits=0):
    """B query blocks of equal length as sequences of the varlen kernel: q (B, Sq, H, D) as B * Sq rows (a view where
    the batch stride allows, else a copy), against key/value rows k_rows, v_rows delimited by cu_k (k_stride, paged:
    see _varlen_call). Returns out (B, Sq, H, D) and lse (B, H, Sq) (None where not want_lse: no transpose)."""
    b, sq, h, d = q.shape
    out, lse = _varlen_call(q.reshape(b * sq, h, d), k_rows, v_rows, _dense_offsets(q.device, b, sq), cu_k, sq, max_k,
                            softmax_scale, causal, local, window, cap, k_stride, want_lse, paged=paged, record=record,
                            num_splits=num_splits)
    return out.view(b, sq, h, d), lse.view(h, b, sq).permute(1, 0, 2).contiguous() if want_lse else None


def _dense_as_varlen(q, k, v, softmax_scale, causal, local, window, cap):
    """flash_attn_func with a local window or soft-capping (options checked by _check_flash_options): the
    (B, S, H, D) batch runs as B sequences of the varlen kernel. Returns out (B, Sq, H, D), lse (B, H, Sq)."""
    layout = "(batch, seqlen, heads, head_dim)"
    _check_tensors_and_causal(q, k, v, causal, 4, layout)
    b, _, sk, _, _, d = _check_inputs(q, k, v, layout)
    k_rows, v_rows = (t.reshape(b * sk, t.shape[2], d) for t in (k, v))
    return _batched_varlen(q, k_rows, v_rows, _dense_offsets(q.device, b, sk), sk, softmax_scale, causal, local,
                           window, cap)


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1), softcap=0.0,
                    alibi_slopes=None, deterministic=False, return_attn_probs=False, *, return_lse=False):
    """Exact attention, flash-attn's `flash_attn_func` (same arguments, in the same order): q (B, Sq, H, D), k and v
    (B, Sk, H_kv, D).

    causal masks aligned to the bottom-right corner (flash-attn >= 2.1): query i sees key j when
    j <= i + Sk - Sq; query rows that see no key give output 0 and lse -inf.
    Returns out (B, Sq, H, D) in q's dtype; with return_lse, (out, lse) with the log-sum-exp (B, H, Sq) in float32;
    with return_attn_probs (flash-attn's way to ask for the lse), (out, lse, None): the third element, flash-attn's
    dropout-mask probabilities for tests, is not produced.
    window_size (left, right): flash-attn's local window (query i sees keys i + Sk - Sq - left .. i + Sk - Sq + right;
    -1 unbounded; causal sets right to 0); softcap > 0: scores softcap * tanh(score / softcap). Calls with either run
    on the varlen kernel (B equal sequences; flash_attn_varlen_func). flash-attn's options that dhpfa does not
    implement must keep their defaults (an error names any other value): dropout_p 0.0, alibi_slopes None.
    deterministic is accepted and changes nothing: every dhpfa call is bitwise reproducible.
    """
    if dropout_p != 0.0 or softcap != 0.0 or alibi_slopes is not None or window_size != (-1, -1) \
            or type(dropout_p) is bool:
        local, window, cap = _check_flash_options(dropout_p, window_size, softcap, alibi_slopes, causal)
        if local and isinstance(q, torch.Tensor) and isinstance(k, torch.Tensor) and q.dim() == k.dim() == 4:
            local, window, causal = _loosen_window(local, window, causal, q.shape[1], k.shape[1])
        if local or cap:
            out_lse = _dense_as_varlen(q, k, v, softmax_scale, causal, local, window, cap)
            if return_attn_probs:
                return out_lse + (None,)
            return out_lse if return_lse else out_lse[0]
    sig = _signature("flash", q, k, v, causal, softmax_scale)
    plan = _cached_plan(sig, q, k, v)
    if plan is None:
        layout = "(batch, seqlen, heads, head_dim)"
        _check_tensors_and_causal(q, k, v, causal, 4, layout)
        wide = []
        _, sq, sk, _, _, d = _check_inputs(q, k, v, layout, wide=wide)
        scale = _check_scale(softmax_scale, d, "softmax_scale")
        plan = _new_plan(sig, q, k, causal, scale, sk - sq, wide)
    _check_no_grad(q, k, v)
    out = _empty(q.shape, q.dtype, q.device)
    lse = _forward(plan, q, k, v, out)
    if not (return_lse or return_attn_probs):
        return out
    if plan.decode_parts and q.shape[0] > 1:  # the decode kernel's lse is a (B, H, 1) view of (H, B) rows
        lse = lse.contiguous()
    return (out, lse, None) if return_attn_probs else (out, lse)


def _unpack(name, t, parts, layout, dim=2):
    """The views of a packed tensor along dimension `dim`, which holds `parts` (flash-attn's packed layouts: (B, S,
    parts, H, D), dim 2; varlen (total, parts, H, D), dim 1)."""
    _check_tensor(name, t, dim + 3, layout)
    if t.shape[dim] != parts:
        raise ValueError(f"{name}: expected a {dim + 3}-D tensor {layout}, got shape {tuple(t.shape)}")
    return t.unbind(dim)


def flash_attn_qkvpacked_func(qkv, dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1),
                              softcap=0.0, alibi_slopes=None, deterministic=False, return_attn_probs=False, *,
                              return_lse=False):
    """flash-attn's `flash_attn_qkvpacked_func`: qkv (B, S, 3, H, D), q, k and v stacked (their views need the
    strides flash_attn_func takes, as a contiguous qkv gives). Arguments and results as flash_attn_func's."""
    q, k, v = _unpack("qkv", qkv, 3, "(batch, seqlen, 3, heads, head_dim)")
    return flash_attn_func(q, k, v, dropout_p, softmax_scale, causal, window_size, softcap, alibi_slopes,
                           deterministic, return_attn_probs, return_lse=return_lse)


def flash_attn_kvpacked_func(q, kv, dropout_p=0.0, softmax_scale=None, causal=False, window_size=(-1, -1),
                             softcap=0.0, alibi_slopes=None, deterministic=False, return_attn_probs=False, *,
                             return_lse=False):
    """flash-attn's `flash_attn_kvpacked_func`: q (B, Sq, H, D), kv (B, Sk, 2, H_kv, D), k and v stacked. Arguments
    and results as flash_attn_func's."""
    k, v = _unpack("kv", kv, 2, "(batch, seqlen, 2, heads, head_dim)")
    return flash_attn_func(q, k, v, dropout_p, softmax_scale, causal, window_size, softcap, alibi_slopes,
                           deterministic, return_attn_probs, return_lse=return_lse)


def _check_cu_seqlens(name, t, q):
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor of int32 sequence offsets, got {type(t).__name__}")
    if t.dtype != torch.int32:
        raise TypeError(f"{name}: expected dtype torch.int32, got {t.dtype}")
    if t.dim() != 1 or t.shape[0] < 2:
        raise ValueError(f"{name}: expected a 1-D tensor of batch + 1 >= 2 offsets, got shape {tuple(t.shape)}")
    if t.device != q.device:
        raise ValueError(f"{name}: expected device {q.device} (that of q), got {t.device}")
    if t.stride(0) != 1:
        raise ValueError(f"{name}: expected a contiguous tensor (stride 1), got stride {t.stride(0)}; "
                         "call .contiguous() first")
    if t.data_ptr() % 16 != 0:
        raise ValueError(f"{name}: data pointer must be 16-byte aligned, got offset {t.data_ptr() % 16} bytes; "
                         "call .clone() first")


def _check_block_table(t, batch, q):
    """A paged cache's block table: int32 (batch, max_blocks_per_seq), rows of page indices (public metadata)."""
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"block_table: expected a torch.Tensor of int32 page indices, got {type(t).__name__}")
    if t.dtype != torch.int32 or t.dim() != 2 or t.shape[0] != batch or t.shape[1] < 1:
        raise ValueError(f"block_table: expected an int32 tensor (batch {batch}, max_blocks_per_seq >= 1), got "
                         f"{t.dtype} {tuple(t.shape)}")
    if t.device != q.device:
        raise ValueError(f"block_table: expected device {q.device} (that of q), got {t.device}")
    if t.stride(1) != 1 or t.data_ptr() % 16:
        raise ValueError(f"block_table: expected contiguous rows (stride 1) and a 16-byte aligned data pointer, got "
                         f"strides {tuple(t.stride())}, offset {t.data_ptr() % 16}; call .contiguous() or .clone() "
                         "first")


def _check_per_sequence(name, t, batch, device):
    """flash_attn_with_kvcache's per-sequence int32 arguments (cache_seqlens, cache_batch_idx, cache_leftpad): a
    (batch,) int32 tensor on the device of q."""
    if not isinstance(t, torch.Tensor) or t.dtype != torch.int32 or tuple(t.shape) != (batch,) or t.device != device:
        got = f"{t.dtype} {tuple(t.shape)} on {t.device}" if isinstance(t, torch.Tensor) else type(t).__name__
        raise ValueError(f"{name}: expected an int32 tensor of shape ({batch},) on {device}, got {got}")


def _paged_rows(name, t, q):
    """A paged cache (num_blocks, page_block_size, H_kv, D) as its (num_blocks * page_block_size, H_kv, D) rows."""
    _check_tensor(name, t, 4, "(num_blocks, page_block_size, heads_kv, head_dim)")
    nb, page, hk, d = t.shape
    if nb > 1 and t.stride(0) != page * t.stride(1):
        raise ValueError(f"{name}: the kernel reads the pages as rows: expected block stride {page * t.stride(1)} "
                         f"(page_block_size x row stride), got strides {tuple(t.stride())}")
    return t.view(nb * page, hk, d) if t.is_contiguous() else t.as_strided((nb * page, hk, d), t.stride()[1:],
                                                                            t.storage_offset())


def _check_max_seqlen(name, n):
    if isinstance(n, bool) or not isinstance(n, Integral):
        raise TypeError(f"{name}: expected an int, got {type(n).__name__}")
    n = int(n)
    if n < 1:
        raise ValueError(f"{name}: expected an int >= 1 (the longest sequence's length), got {n}")
    return n


def flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p=0.0,
                           softmax_scale=None, causal=False, window_size=(-1, -1), softcap=0.0, alibi_slopes=None,
                           deterministic=False, return_attn_probs=False, block_table=None, *, return_lse=False):
    """flash-attn's `flash_attn_varlen_func` (same arguments, in the same order): sequences of different lengths
    packed along the rows. q (total_q, H, D), k and v (total_k, H_kv, D); sequence b is rows
    [cu_seqlens_q[b], cu_seqlens_q[b + 1]) of q and [cu_seqlens_k[b], cu_seqlens_k[b + 1]) of k and v (int32 offsets,
    nondecreasing from 0, on q's device); max_seqlen_q / max_seqlen_k at least every sequence's length.

    causal masks aligned to each sequence's bottom-right corner (flash-attn >= 2.1). Returns out (total_q, H, D);
    with return_lse (out, lse), lse (H, total_q) float32 as flash-attn's; with return_attn_probs (out, lse, None).
    Rows of q outside every sequence (past cu_seqlens_q[-1]) are not written, as in flash-attn.

    Public: the sequence offsets and lengths (the tile schedule is a function of them, as of any shape; the call's
    time depends on them). Secret: q, k, v and the outputs. The kernel reads the offsets on the GPU (no host sync):
    offsets out of range or out of order are clamped to the tensors (no access outside them; the output of such
    sequences is undefined), and a sequence longer than max_seqlen_q gets NaN in its rows past max_seqlen_q.
    window_size and softcap as in flash_attn_func; dropout_p and alibi_slopes keep their defaults. block_table
    (batch, max_blocks_per_seq) int32 (paged KV, flash-attn's layout): k and v are then a paged cache (num_blocks,
    page_block_size, H_kv, D), and sequence b's key j is k[block_table[b, j // page_block_size], j % page_block_size]
    (cu_seqlens_k: the sequences' logical lengths; the block table is public, as the offsets; page indices out of range
    are clamped to the cache, so no access leaves it). With grouped-query heads and at most
    variants.VARLEN_GROUP_MAX_Q queries per sequence, a key/value head's query heads share a tile; on grids smaller
    than the GPU, each tile's key blocks are split across programs (variants.varlen_splits) and merged: both decided
    by public values (shapes, max_seqlen_q, max_seqlen_k, the GPU's SM count). Batches of equal lengths may run on
    the dense kernels (variants.varlen_dense, _equal_varlen).
    """
    local, window, cap = False, (-1, -1), 0.0
    if dropout_p != 0.0 or softcap != 0.0 or alibi_slopes is not None or window_size != (-1, -1) \
            or type(dropout_p) is bool:
        local, window, cap = _check_flash_options(dropout_p, window_size, softcap, alibi_slopes, causal)
    paged = None
    if block_table is not None:  # k, v: a paged cache (num_blocks, page_block_size, H_kv, D)
        k_rows, v_rows = _paged_rows("k", k, q), _paged_rows("v", v, q)
        page = k.shape[1]
        if tuple(v.shape) != tuple(k.shape):
            raise ValueError(f"v: expected the shape of k {tuple(k.shape)}, got {tuple(v.shape)}")
        k, v, paged = k_rows, v_rows, (block_table, page)
    out, lse = _varlen_call(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, softmax_scale, causal,
                            local, window, cap, want_lse=return_lse or return_attn_probs, paged=paged)
    if return_attn_probs:
        return out, lse, None
    return (out, lse) if return_lse else out


def _varlen_call(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, softmax_scale, causal, local,
                 window, cap, k_stride=1, want_lse=True, paged=None, record=None, num_splits=0):
    """(out, lse) of a varlen call whose options are checked (_check_flash_options). k_stride 2: cu_seqlens_k holds a
    (start, end) row pair per sequence (flash_attn_with_kvcache's cache rows; built by dhpfa, not a caller's).
    want_lse=False: lse may be None (the equal-length path skips its transpose) or the base address of scratch
    memory (an int: the kept launchers take those), not to be read. paged: (block_table, page_size), k
    and v then a paged cache's (pages * page_size, H_kv, D) rows and the offsets logical lengths. record (a list): the
    plan this call ran is appended to it (None where its pages were gathered first). num_splits > 0: that many parts
    where the portable kernel takes the call (flash_attn_with_kvcache's num_splits), in place of the rule's count."""
    if record is not None:
        record.append(None)
    if paged is not None and (local or cap) and not _on_hopper_varlen(q, k, v, max_seqlen_q, max_seqlen_k, causal,
                                                                      local, cap, k_stride, paged, window) \
            and not _grouped_varlen(q, k, max_seqlen_q):
        # a window or soft-cap on a paged cache: the Hopper paged builds, the portable kernel's grouped paged builds
        # (decode steps and drafts of grouped-query heads); elsewhere, gather the pages first
        k, v, cu_seqlens_k = _gather_pages(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, k_stride,
                                           paged, window if local else (-1, -1))
        k_stride, paged, record = 2, None, None
    extra = _varlen_extra(cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, window, cap)
    bt = None
    if paged is not None:
        bt = paged[0]
        if extra is not None and type(bt) is torch.Tensor:
            extra = extra + (bt.shape, bt.stride(), bt.dtype, bt.device, paged[1])
        else:
            extra = None
    sig = _signature("varlen", q, k, v, causal, softmax_scale, extra and extra + (k_stride, num_splits))
    plan = _cached_plan(sig, q, k, v)
    if plan is None or (cu_seqlens_q.data_ptr() | cu_seqlens_k.data_ptr() | (bt.data_ptr() if bt is not None else 0)) \
            % 16:
        plan = _new_varlen_plan(sig, q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, causal,
                                softmax_scale, local, cap, k_stride, paged, window, num_splits)
    _check_no_grad(q, k, v)
    if plan.dense is not None:
        return _equal_varlen(plan, q, k, v, cu_seqlens_q, cu_seqlens_k, want_lse)
    if plan.variant.kernel in variants.VARLEN_SM90_NAMES:
        out = _varlen_out(q, plan.variant.config.block_m // 2)
    else:
        out = _empty(q.shape, q.dtype, q.device)
    from .kernels import dispatch, triton_fwd
    total_q, h, d = q.shape
    if (plan.splits > 1 or not want_lse) and plan.launcher is not None and _takes_addresses(plan.launcher) \
            and dispatch._fast_path_allowed():  # lse (where not returned) and the workspace in one scratch allocation
        scratch, ptrs = _scratch(q.device, ([] if want_lse else [4 * h * total_q]) +
                                 _workspace_bytes(total_q, h, d, plan.splits))
        lse = _empty((h, total_q), torch.float32, q.device) if want_lse else ptrs.pop(0)
        ws = tuple(ptrs)
    else:
        lse = _empty((h, total_q), torch.float32, q.device)
        ws = triton_fwd.varlen_workspace(q, plan.splits) if plan.splits > 1 else ()
    with _on_device(q):
        if plan.launcher is not None and dispatch._fast_path_allowed():
            plan.launcher((q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, bt) + ws, plan.scale, q.device.index)
        else:
            plan.launcher = dispatch.launch_varlen(plan.variant, q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k,
                                                   plan.max_q, plan.scale, window, cap, plan.group, plan.splits,
                                                   ws or (None, None), plan.combine, k_stride,
                                                   paged and (bt, paged[1], k.shape[0] // paged[1]))
    if record is not None:
        record[-1] = plan
    return out, lse


def _on_hopper_varlen(q, k, v, max_seqlen_q, max_seqlen_k, causal, local, cap, k_stride, paged,
                      window=(-1, -1)) -> bool:
    """Whether a varlen call runs the Hopper varlen kernel: _new_varlen_plan's choice, and _varlen_call's before it
    (a windowed or soft-capped paged call that does not is gathered first, _gather_pages). False on the CPU interpreter,
    off sm_90, and where the arguments are not yet known to be well formed (the plan's checks then name what is
    wrong)."""
    if not all(isinstance(t, torch.Tensor) and t.dim() == 3 for t in (q, k, v)) or not q.is_cuda \
            or any(isinstance(n, bool) or not isinstance(n, Integral) for n in (max_seqlen_q, max_seqlen_k)) \
            or _interpreter_active() or not _is_sm90(q.device):
        return False
    return _hopper_varlen(q, k, v, q.shape[-1], int(max_seqlen_q), causal, local, cap, k_stride, paged,
                          int(max_seqlen_k), window)


def _varlen_group(q, k, d, max_q, interp) -> int:
    """Query heads per tile of a varlen call on the portable kernel: the grouped-query heads as rows of one tile where
    the queries per sequence are few (variants.VARLEN_GROUP_MAX_Q) at VARLEN_GROUP_HEAD_DIMS (any head dim on the
    interpreter), else 1. Public: shapes and max_seqlen_q."""
    heads, kv_heads = q.shape[1], k.shape[1]
    return heads // kv_heads if heads != kv_heads and max_q <= variants.VARLEN_GROUP_MAX_Q \
        and (d in variants.VARLEN_GROUP_HEAD_DIMS or interp) else 1


def _grouped_varlen(q, k, max_seqlen_q) -> bool:
    """Whether a varlen call runs the portable kernel's grouped tiles (_varlen_group), where the paged builds take a
    window and soft-cap (_varlen_call's page gather is not needed); False where the arguments are not yet known to be
    well formed (the plan's checks then name what is wrong). Public: shapes and max_seqlen_q."""
    if not all(isinstance(t, torch.Tensor) and t.dim() == 3 for t in (q, k)) or q.shape[-1] != k.shape[-1] \
            or k.shape[1] < 1 or q.shape[1] % k.shape[1] \
            or isinstance(max_seqlen_q, bool) or not isinstance(max_seqlen_q, Integral):
        return False
    return _varlen_group(q, k, q.shape[-1], int(max_seqlen_q), _interpreter_active()) > 1


def _gather_pages(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, k_stride, paged, window=(-1, -1)):
    """A paged call with a local window or a soft-cap that no paged build takes (the Hopper paged builds take them
    where the rule sends a call there, the portable kernel's in its grouped form only: more would multiply the audited
    binaries): each sequence's pages copied into contiguous rows first, sequence b's at rows [b * M, (b + 1) * M), then
    the unpaged builds read its keys as (start, end) rows there (k_stride 2). M: the table's columns of pages (its
    width, as the paged kernels read it); with a window bounded on both sides (left, right >= 0; causal: right 0) only the
    ceil((max_seqlen_q + left + right) / page) + 1 columns from the one holding key end - queries - left (the first
    query's leftmost visible key): the keys before it are dropped, which leaves the bottom-right alignment and the
    window's distances as they were, and every row the kernel computes (the first max_seqlen_q of each sequence) sees
    the keys it would. The copy's addresses follow the block table and the sequences' lengths (public; table entries
    clamped to the cache, as the paged kernels clamp them), never the data; it costs a read and a write of batch x M
    rows of k and v per call. Returns (k, v, (start, end) row pairs)."""
    bt, page = paged
    batch = cu_seqlens_q.shape[0] - 1 if isinstance(cu_seqlens_q, torch.Tensor) else None
    _check_cu_seqlens("cu_seqlens_q", cu_seqlens_q, q)
    _check_cu_seqlens("cu_seqlens_k", cu_seqlens_k, q)
    _check_block_table(bt, batch, q)
    if k_stride == 1 and cu_seqlens_k.shape[0] != batch + 1:
        raise ValueError(f"cu_seqlens_k: expected {batch + 1} offsets (batch + 1, as cu_seqlens_q), got "
                         f"{cu_seqlens_k.shape[0]}")
    max_q = _check_max_seqlen("max_seqlen_q", max_seqlen_q)
    left, right = window
    _check_max_seqlen("max_seqlen_k", max_seqlen_k)
    cols = bt.shape[1]  # the table's width, as the paged kernels read it (a key past max_seqlen_k is still a key)
    span = cols if left < 0 or right < 0 else min(cols, -(-(max_q + left + right) // page) + 1)
    n_pages = k.shape[0] // page
    dev = q.device
    if k_stride == 1:  # logical lengths from the offsets
        lo = torch.zeros(batch, dtype=torch.int32, device=dev)
        hi = (cu_seqlens_k[1:] - cu_seqlens_k[:-1]).clamp(0, cols * page)
    else:  # flash_attn_with_kvcache's (start, end) logical rows of each sequence's pages
        lo, hi = (cu_seqlens_k.view(batch, 2)[:, i].clamp(0, cols * page) for i in (0, 1))
    if span < cols:  # each sequence's first gathered column: that of its first query's leftmost visible key
        n_q = (cu_seqlens_q[1:] - cu_seqlens_q[:-1]).clamp(min=0)
        first = ((hi - n_q - left).clamp(min=0) // page).clamp(max=cols - span)
    else:
        first = torch.zeros_like(hi)
    col = first[:, None].long() + torch.arange(span, device=dev)
    idx = bt.gather(1, col).clamp(0, n_pages - 1).reshape(-1).long()
    kg, vg = (t.unflatten(0, (n_pages, page)).index_select(0, idx).flatten(0, 1) for t in (k, v))
    rows, skip = span * page, first * page
    base = torch.arange(batch, dtype=torch.int32, device=dev) * rows
    lo, hi = (lo - skip).clamp(0, rows), (hi - skip).clamp(0, rows)
    bounds = torch.stack((base + lo, base + torch.maximum(hi, lo)), 1).reshape(-1).to(torch.int32)
    return kg, vg, bounds


def _hopper_varlen(q, k, v, d, max_q, causal, local, cap, k_stride, paged, max_k=None, window=(-1, -1)) -> bool:
    """Whether a varlen call on sm_90 runs the Hopper varlen kernel (variants.varlen_sm90): a paged cache only with pages
    of whole key blocks (variants.varlen_sm90_pages) (a local window and soft-capping are in its builds, paged or
    not; k_stride 2, flash_attn_with_kvcache's (start, end) key rows, included; the length rule takes a windowed
    call's causal flag as the call gives it), rows on both sides (fewer than 2^31:
    the kernel's int32 totals; the elements may pass 2^31, as its descriptors have 64-bit strides and its LSE offsets
    are 64-bit), row and head strides TMA can take, and at most VARLEN_SM90_MAX_TILES query tiles. Public: shapes,
    strides, flags, max_seqlen_q, max_seqlen_k (flash_attn_with_kvcache's: the cache's rows), the window (left,
    right): the keys it reaches (variants.varlen_sm90's window_keys)."""
    left, right = window
    reach = None if left < 0 or right < 0 else left + right + 1
    return k_stride in (1, 2) and (paged is None or variants.varlen_sm90_pages(d, paged[1])) \
        and variants.varlen_sm90(d, max_q, causal, max_k, paged is not None, bool(local), reach) \
        and 0 < q.shape[0] < OFFSET_LIMIT and 0 < k.shape[0] < OFFSET_LIMIT \
        and all(t.stride(i) * t.element_size() % 16 == 0 for t in (q, k, v) for i in (0, 1)) \
        and -(-max_q // variants.VARLEN_SM90[d].block_m) <= variants.VARLEN_SM90_MAX_TILES


def _varlen_out(q, rows):
    """The output of a call on the Hopper varlen kernel: q's shape, with `rows` rows of its own storage in front, where
    the output's TMA descriptor is based (sm90_fwd.varlen_out_descriptor)."""
    return _empty((q.shape[0] + rows,) + tuple(q.shape[1:]), q.dtype, q.device)[rows:]


def _equal_varlen(plan, q, k, v, cu_seqlens_q, cu_seqlens_k, want_lse):
    """A varlen call of B equal sequences (variants.varlen_dense) as one dense (B, S, H, D) call, then the guard
    (triton_fwd.varlen_equal_guard) that NaNs every block whose offsets are not the dense batch's. Returns out
    (total_q, H, D) and lse (H, total_q) (None unless want_lse)."""
    from .kernels import dispatch
    batch = cu_seqlens_q.shape[0] - 1
    dense = plan.dense
    out = _empty(q.shape, q.dtype, q.device)
    on_device = _on_device(q)
    if dense.launcher is not None and plan.launcher is not None and dispatch._fast_path_allowed() \
            and (dense.generation is None or dense.generation == _tune.generation):
        # Both launchers read only the tensors' base addresses (shapes and strides are in their keys, kept from the
        # first call's views): the 3-D tensors go in as they are (host time: no views)
        lse_d = _empty((batch, q.shape[1], plan.max_q), torch.float32, q.device)
        with on_device:
            dense.launcher((q, k, v, out, lse_d), plan.scale, q.device.index)
            plan.launcher((out, lse_d, cu_seqlens_q, cu_seqlens_k), plan.scale, q.device.index)
    else:
        qd, kd, vd = (t.unflatten(0, (batch, -1)) for t in (q, k, v))
        out_d = out.view(qd.shape)
        if dense.generation is not None and dense.generation != _tune.generation:  # the tuner chose again
            dense = plan.dense = _new_plan(None, qd, kd, dense.causal, plan.scale, dense.offset)
        lse_d = _forward(dense, qd, kd, vd, out_d)
        with on_device:
            plan.launcher = dispatch.launch_equal_guard(out_d, lse_d, cu_seqlens_q, cu_seqlens_k, plan.max_q,
                                                        kd.shape[1])
    if not want_lse:
        return out, None
    return out, lse_d.permute(1, 0, 2).reshape(q.shape[1], q.shape[0])


class _VarlenPlan:
    """A varlen call's plan (see _Plan): its variant, the combine variant of a split call (else None), the softmax
    scale, max_seqlen_q, the query heads per tile (group), the parts per tile (splits) and the launcher; for a call of
    equal lengths, the dense call's _Plan (dense; the launcher is then the guard's)."""
    __slots__ = ("variant", "combine", "scale", "max_q", "group", "splits", "launcher", "generation", "dense")

    def __init__(self, variant, combine, scale, max_q, group, splits, dense=None):
        self.variant, self.combine, self.scale, self.max_q = variant, combine, scale, max_q
        self.group, self.splits, self.launcher, self.generation = group, splits, None, None
        self.dense = dense


def _varlen_extra(cu_q, cu_k, max_q, max_k, window, cap):
    """The varlen call's public metadata beyond q, k, v (for _signature), or None where the checks must run."""
    if type(cu_q) is not torch.Tensor or type(cu_k) is not torch.Tensor or type(max_q) is not int \
            or type(max_k) is not int:
        return None
    return (cu_q.shape, cu_q.stride(), cu_q.dtype, cu_q.device, cu_k.shape, cu_k.stride(), cu_k.dtype, cu_k.device,
            max_q, max_k, window, cap)


def _new_varlen_plan(sig, q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, causal, softmax_scale,
                     local=False, cap=0.0, k_stride=1, paged=None, window=(-1, -1), num_splits=0):
    """Check a varlen call's arguments (public metadata only) and keep its plan under `sig` (when not None). The plan's
    offset field holds max_seqlen_q (it sizes the grid)."""
    layout = "(total_seqlen, heads, head_dim)"
    _check_tensors_and_causal(q, k, v, causal, 3, layout)
    wide = []  # tensors past 32-bit offsets: the Hopper varlen kernel's descriptors take them, the portable kernel not
    _, _, _, _, _, d = _check_inputs(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0), layout, wide=wide)
    _check_cu_seqlens("cu_seqlens_q", cu_seqlens_q, q)
    _check_cu_seqlens("cu_seqlens_k", cu_seqlens_k, q)
    if k_stride == 1 and cu_seqlens_k.shape[0] != cu_seqlens_q.shape[0]:
        raise ValueError(f"cu_seqlens_k: expected {cu_seqlens_q.shape[0]} offsets (batch + 1, as cu_seqlens_q), got "
                         f"{cu_seqlens_k.shape[0]}")
    if k_stride == 2:
        assert cu_seqlens_k.shape[0] == 2 * (cu_seqlens_q.shape[0] - 1), "a (start, end) pair per sequence"
    max_q = _check_max_seqlen("max_seqlen_q", max_seqlen_q)
    _check_max_seqlen("max_seqlen_k", max_seqlen_k)
    scale = _check_scale(softmax_scale, d, "softmax_scale")
    if paged is not None:
        _check_block_table(paged[0], cu_seqlens_q.shape[0] - 1, q)
    heads, kv_heads = q.shape[1], k.shape[1]
    batch, max_k = cu_seqlens_q.shape[0] - 1, int(max_seqlen_k)
    interp = _interpreter_active()
    hopper = _on_hopper_varlen(q, k, v, max_q, max_k, causal, local, cap, k_stride, paged, window)
    if wide and not hopper:
        name, span = wide[0]
        raise ValueError(f"{name}: spans {span} elements; the varlen kernel indexes within a tensor with 32-bit "
                         "offsets (limit 2**31 - 1)")
    # equal lengths on the dense kernels: measured on Hopper (the Gluon builds) only; the interpreter for the tests
    if k_stride == 1 and paged is None and not local and not cap and variants.varlen_dense(d, max_q) and not wide \
            and q.shape[0] == batch * max_q \
            and k.shape[0] == batch * max_k and (interp or _is_sm90(q.device)):
        dense = _new_plan(None, q.unflatten(0, (batch, max_q)), k.unflatten(0, (batch, max_k)), causal, scale,
                          max_k - max_q)
        plan = _VarlenPlan(None, None, scale, max_q, 1, 1, dense)
        return _keep_plan(sig, plan)
    # mixed lengths on Hopper: the Gluon varlen kernel (variants.varlen_sm90; its grid's second axis counts query tiles)
    if hopper:
        plan = _VarlenPlan(variants.varlen_sm90_variant(q.dtype, d, causal and not local, local=local, softcap=cap > 0,
                                                        paged=paged is not None), None, scale, max_q, 1, 1)
        return _keep_plan(sig, plan)
    # few queries per sequence: the group's heads as rows of one tile
    group = _varlen_group(q, k, d, max_q, interp)
    splits = 1
    few = group > 1 and variants.varlen_few_rows(d, max_q * group, local, cap > 0, interp)
    config = variants.varlen_config(d, interp, group > 1, few)
    programs = -(-max_q * group // config.block_m) * (cu_seqlens_q.shape[0] - 1) * (heads // group)
    if num_splits > 0:  # the caller's count (flash_attn_with_kvcache's num_splits)
        splits = num_splits
    elif interp:
        splits = variants.VARLEN_SPLIT_FORCE or 1
    elif q.is_cuda:
        from .kernels import dispatch
        splits = variants.varlen_splits(programs, int(max_seqlen_k), dispatch.sm_count(q.device), max_q, d)
    if splits > 1 and splits * q.numel() * 4 >= OFFSET_LIMIT:  # the workspace's 32-bit offsets (decode calls: small)
        splits = 1
    plan = _VarlenPlan(variants.varlen_variant(q.dtype, d, causal and not local, interpreter=interp, local=local,
                                               softcap=cap > 0, split=splits > 1, group=group > 1,
                                               paged=paged is not None, few=few,
                                               page_blocks=paged is not None
                                               and variants.varlen_page_blocks(d, paged[1], interpreter=interp,
                                                                                   group=group > 1, few=few)),
                       variants.varlen_combine_variant(q.dtype, d, interpreter=interp, group=group > 1,
                                                       splits=splits)
                       if splits > 1 else None, scale, max_q, group, splits)
    return _keep_plan(sig, plan)


def flash_attn_varlen_qkvpacked_func(qkv, cu_seqlens, max_seqlen, dropout_p=0.0, softmax_scale=None, causal=False,
                                     window_size=(-1, -1), softcap=0.0, alibi_slopes=None, deterministic=False,
                                     return_attn_probs=False, *, return_lse=False):
    """flash-attn's `flash_attn_varlen_qkvpacked_func`: qkv (total, 3, H, D), one set of offsets. Arguments and results
    as flash_attn_varlen_func's."""
    q, k, v = _unpack("qkv", qkv, 3, "(total_seqlen, 3, heads, head_dim)", dim=1)
    return flash_attn_varlen_func(q, k, v, cu_seqlens, cu_seqlens, max_seqlen, max_seqlen, dropout_p, softmax_scale,
                                  causal, window_size, softcap, alibi_slopes, deterministic, return_attn_probs,
                                  return_lse=return_lse)


def flash_attn_varlen_kvpacked_func(q, kv, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p=0.0,
                                    softmax_scale=None, causal=False, window_size=(-1, -1), softcap=0.0,
                                    alibi_slopes=None, deterministic=False, return_attn_probs=False, *,
                                    return_lse=False):
    """flash-attn's `flash_attn_varlen_kvpacked_func`: q (total_q, H, D), kv (total_k, 2, H_kv, D). Arguments and
    results as flash_attn_varlen_func's."""
    k, v = _unpack("kv", kv, 2, "(total_seqlen, 2, heads, head_dim)", dim=1)
    return flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p,
                                  softmax_scale, causal, window_size, softcap, alibi_slopes, deterministic,
                                  return_attn_probs, return_lse=return_lse)


def _rotary_qk(q, k, cos, sin, lens, cache_len, per_row, interleaved):
    """flash-attn's rotary embedding for flash_attn_with_kvcache: the first rotary_dim = 2 * cos.shape[1] dims of the
    new keys k (B, S_new, H_kv, D) rotated at positions lens[b] + i, and of q (B, Sq, H, D) at lens[b] + i (per_row)
    or lens[b]; interleaved: pairs (0, 1), (2, 3), ... (GPT-J), else (i, i + rotary_dim / 2) (GPT-NeoX). Computed in
    float32, rounded to the inputs' dtype; returns new (q, k). Elementwise torch operations on the secret q and k at
    public positions (the lengths). (kvcache_append computes the same bits in its launch: api.KVCACHE_ROTARY_FUSED.)"""
    half = _check_rotary(q, cos, sin, cache_len)

    def rotate(x, pos):
        c = cos[pos].float()[:, :, None, :]  # (B, S, 1, half)
        s = sin[pos].float()[:, :, None, :]
        xr = x[..., :2 * half].float()
        if interleaved:
            x1, x2 = xr[..., 0::2], xr[..., 1::2]
            rot = torch.stack((x1 * c - x2 * s, x1 * s + x2 * c), dim=-1).flatten(-2)
        else:
            x1, x2 = xr[..., :half], xr[..., half:]
            rot = torch.cat((x1 * c - x2 * s, x1 * s + x2 * c), dim=-1)
        return torch.cat((rot.to(x.dtype), x[..., 2 * half:]), dim=-1)
    start = lens.long()[:, None]
    pos_k = start + torch.arange(k.shape[1], device=q.device)
    pos_q = start + torch.arange(q.shape[1], device=q.device) if per_row else start.expand(-1, q.shape[1])
    return rotate(q, pos_q), rotate(k, pos_k)


def _check_rotary(q, cos, sin, cache_len):
    """rotary_cos, rotary_sin checked (2-D (seqlen_ro >= cache_len, rotary_dim / 2), q's dtype and device, rotary_dim a
    positive multiple of 16 up to the head dim); returns rotary_dim / 2."""
    for name, t in (("rotary_cos", cos), ("rotary_sin", sin)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{name}: expected a torch.Tensor (seqlen_ro, rotary_dim / 2), got {type(t).__name__}")
        if t.dim() != 2 or tuple(t.shape) != tuple(cos.shape) or t.dtype != q.dtype or t.device != q.device:
            raise ValueError(f"{name}: expected a 2-D tensor (seqlen_ro, rotary_dim / 2) of dtype {q.dtype} on "
                             f"{q.device}, rotary_cos and rotary_sin alike; got {tuple(t.shape)}, {t.dtype} on "
                             f"{t.device}")
    ro_len, half = cos.shape
    d = q.shape[-1]
    if half == 0 or (2 * half) % 16 or 2 * half > d:
        raise ValueError(f"rotary_cos: rotary_dim = 2 x {half} must be a positive multiple of 16 and at most head_dim "
                         f"{d}")
    if ro_len < cache_len:
        raise ValueError(f"rotary_cos: expected at least {cache_len} positions (the cache's length), got {ro_len}")
    return half


def flash_attn_with_kvcache(q, k_cache, v_cache, k=None, v=None, rotary_cos=None, rotary_sin=None, cache_seqlens=None,
                            cache_batch_idx=None, cache_leftpad=None, block_table=None, softmax_scale=None, causal=False,
                            window_size=(-1, -1), softcap=0.0, rotary_interleaved=True, alibi_slopes=None,
                            num_splits=0, return_softmax_lse=False):
    """flash-attn's `flash_attn_with_kvcache` (same arguments, in the same order): q (B, Sq, H, D) against a key/value
    cache k_cache, v_cache (B_cache, S_cache, H_kv, D) whose sequence b holds cache_seqlens[b] tokens (an int or a
    (B,) int32 tensor; None: the whole cache). With k, v (B, S_new, H_kv, D), the new tokens are first written into
    the cache in place at positions cache_seqlens[b] .. + S_new - 1 (torch indexing: a position past the cache
    raises a device-side error), and attended to. cache_batch_idx (B,) int32: the cache row of each sequence (default
    b). causal aligns to the bottom-right (query i of Sq sees the cache's first cache_seqlens[b] + S_new - Sq + i + 1
    tokens); window_size and softcap as in flash_attn_func. Returns out (B, Sq, H, D), with return_softmax_lse (out,
    lse (B, H, Sq)).
    Runs on the varlen kernel: sequence b's keys are its cache row's first tokens (a (start, end) pair of rows per
    sequence); with cache_seqlens an int (or None), no cache_batch_idx, no window that binds and no softcap, calls of
    many queries (variants.varlen_dense: a prefill chunk) run flash_attn_func on the cache's first rows. Session 67:
    one query a sequence against contiguous caches (no block_table, no cache_batch_idx, no binding window or softcap,
    num_splits 0) on Hopper runs the swap decode kernels' KV-cache builds where variants.decode_kv_choice gives them
    (the dense decode rule at the cache's length: the merged / split builds' pair counts), each sequence's own keys
    split in the kernel. Public:
    cache_seqlens, cache_batch_idx, block_table and the shapes (the schedule follows them); secret: q, the cache and
    the new tokens. rotary_cos / rotary_sin (seqlen_ro >= the cache's length, rotary_dim / 2), with k and v:
    flash-attn's rotary embedding of the new keys (before they are written) and of q, computed in kvcache_append's
    launch (the bits of _rotary_qk's torch operations, which api.KVCACHE_ROTARY_FUSED = False runs). block_table (B, max_blocks_per_seq) int32: k_cache and v_cache are pages (num_blocks,
    page_block_size, H_kv, D), sequence b's position j in page block_table[b, j // page_block_size] (its capacity
    max_blocks_per_seq x page_block_size); not with cache_batch_idx; with a binding window or softcap the grouped
    decode builds read the pages where they take the call (grouped-query heads, at most 32 queries), the Hopper paged
    builds where the rule sends it there, and otherwise the pages are first copied into contiguous rows
    (_gather_pages). cache_leftpad (B,)
    int32 (public, as the lengths): sequence b's keys start at position cache_leftpad[b] of its cache row (flash-attn's
    semantics: keys cache_leftpad[b] .. cache_seqlens[b] + S_new - 1, causal alignment on those; new tokens still at
    cache_seqlens[b] and rotary positions absolute in the row; a start past the end is clamped to it, leaving no
    keys); not with a paged cache, as in flash-attn. Not implemented (an error names it): alibi_slopes. num_splits (an
    int, public): 0 (default) lets dhpfa's rule split each sequence's keys across programs (variants.varlen_splits), n
    > 0 runs n parts where the portable varlen kernel takes the call (1: no split), as flash-attn's; the dense and
    Hopper varlen routes have their own schedules and do not read it."""
    if type(num_splits) is not int or num_splits < 0:
        raise ValueError(f"num_splits: expected an int >= 0 (0: dhpfa's rule), got {num_splits!r}")
    sig = _kvcache_signature(q, k_cache, v_cache, k, v, rotary_cos, rotary_sin, cache_seqlens, cache_batch_idx,
                             cache_leftpad, block_table, softmax_scale, causal, window_size, softcap, alibi_slopes,
                             return_softmax_lse, rotary_interleaved, num_splits) if KVCACHE_PLANS else None
    # a CUDA graph's capture may take another route for equal caches (an int or absent cache_seqlens;
    # variants.kvcache_dense): those calls never meet the eager plans (a tensor of lengths keeps its plan under capture)
    capturing = not isinstance(cache_seqlens, torch.Tensor) and isinstance(q, torch.Tensor) and q.is_cuda \
        and torch.cuda.is_current_stream_capturing()
    if sig is not None and capturing:
        sig = sig + ("capturing",)
    if sig is not None:
        plan = _PLANS.get(sig)
        if plan is not None:
            res = _kvcache_planned(plan, q, k_cache, v_cache, k, v, cache_seqlens, cache_batch_idx, cache_leftpad,
                                   block_table, return_softmax_lse, rotary_cos, rotary_sin)
            if res is not None:
                return res
    local, window, cap = _check_flash_options(0.0, window_size, softcap, alibi_slopes, causal)
    _check_tensors_and_causal(q, k_cache, v_cache, causal, 4, "(batch, seqlen, heads, head_dim)",
                              names=("q", "k_cache", "v_cache"))
    b, sq, h, d = q.shape
    bc, sc, hk, _ = k_cache.shape
    device = q.device
    for name, t in (("k_cache", k_cache), ("v_cache", v_cache)):
        if tuple(t.shape) != tuple(k_cache.shape) or t.dtype != q.dtype or t.device != device:
            raise ValueError(f"{name}: expected shape {tuple(k_cache.shape)}, dtype {q.dtype} on {device} (those of "
                             f"k_cache and q), got {tuple(t.shape)}, {t.dtype} on {t.device}")
        if bc > 1 and t.stride(0) != sc * t.stride(1):
            raise ValueError(f"{name}: the kernel reads the cache as (batch x seqlen) rows: expected batch stride "
                             f"{sc * t.stride(1)} (seqlen x row stride), got strides {tuple(t.stride())}")
    idx = None
    paged = block_table is not None
    if cache_leftpad is not None:
        if paged:
            raise ValueError("cache_leftpad: not supported with a paged cache (block_table), as in flash-attn; "
                             "expected None")
        _check_per_sequence("cache_leftpad", cache_leftpad, b, device)
    if paged:  # a paged cache: (num_blocks, page_block_size, H_kv, D), sequence b's pages in block_table[b]
        if cache_batch_idx is not None:
            raise ValueError("cache_batch_idx: not supported with a paged cache (block_table), as in flash-attn; "
                             "expected None")
        _check_block_table(block_table, b, q)
        page, sc = sc, sc * block_table.shape[1]  # page size; a sequence's capacity
    if cache_batch_idx is not None:
        _check_per_sequence("cache_batch_idx", cache_batch_idx, b, device)
        idx = cache_batch_idx.long()
    elif bc != b and not paged:
        raise ValueError(f"k_cache: expected batch size {b} (that of q; or pass cache_batch_idx), got {bc}")
    if isinstance(cache_seqlens, bool):
        raise TypeError("cache_seqlens: expected an int or an int32 tensor, got bool")
    if cache_seqlens is None:
        lens = _full_lengths(device, b, sc)
    elif isinstance(cache_seqlens, Integral):
        if not 0 <= int(cache_seqlens) <= sc:
            raise ValueError(f"cache_seqlens: expected 0 .. {sc} (the cache's length), got {cache_seqlens}")
        lens = _full_lengths(device, b, int(cache_seqlens))
    elif isinstance(cache_seqlens, torch.Tensor):
        _check_per_sequence("cache_seqlens", cache_seqlens, b, device)
        lens = cache_seqlens
    else:
        raise TypeError(f"cache_seqlens: expected an int or an int32 tensor, got {type(cache_seqlens).__name__}")
    s_new, rotary = 0, None
    if (k is None) != (v is None):
        raise ValueError("k, v: pass both new-token tensors or neither")
    if (rotary_cos is not None or rotary_sin is not None) and k is None:
        raise ValueError("rotary_cos, rotary_sin: rotary embeddings apply to the new tokens; pass k and v too")
    if k is not None:
        for name, t in (("k", k), ("v", v)):
            _check_tensor(name, t, 4, "(batch, seqlen_new, heads_kv, head_dim)")
            if tuple(t.shape[:1]) != (b,) or tuple(t.shape[2:]) != (hk, d) or t.dtype != k_cache.dtype \
                    or t.device != device:
                raise ValueError(f"{name}: expected shape ({b}, seqlen_new, {hk}, {d}), dtype {k_cache.dtype} on "
                                 f"{device}, got {tuple(t.shape)}, {t.dtype} on {t.device}")
        if rotary_cos is not None or rotary_sin is not None:
            # flash-attn's rule: each query at its own position with causal masking or a window that binds at the
            # cache's length (a side >= S_cache does not), else every query of a sequence at its first new position
            per_row = causal or any(0 <= w < sc for w in window)
            if KVCACHE_ROTARY_FUSED and KVCACHE_APPEND_FUSED and k.shape[1] > 0:  # in kvcache_append's launch
                _check_rotary(q, rotary_cos, rotary_sin, sc)
                rotary = (rotary_cos, rotary_sin, per_row, bool(rotary_interleaved))
            else:
                q, k = _rotary_qk(q, k, rotary_cos, rotary_sin, lens, sc, per_row, rotary_interleaved)
        s_new = k.shape[1]
    n_rows = bc * k_cache.shape[1]  # the cache's rows: its batch x seqlen, or its pages x page size
    k_rows, v_rows = k_cache.view(n_rows, hk, d), v_cache.view(n_rows, hk, d)
    bounds = None
    aux = [] if sig is not None else None  # the launcher of kvcache_append or kvcache_bounds, for the call's plan
    if s_new and KVCACHE_APPEND_FUSED:  # the new tokens written and the key rows formed in one launch
        bounds, q_rot = _kvcache_append(lens, cache_leftpad, cache_batch_idx, k, v, k_rows, v_rows, block_table, sc,
                                        page if paged else 1, paged, aux, q, rotary)
        q = q_rot if rotary is not None else q
    elif s_new:
        pos = lens.long()[:, None] + torch.arange(s_new, device=device)  # public: lengths, never data
        if paged:  # the page of each new position (the block table is public), and the row in it
            pages = torch.gather(block_table.long(), 1, pos // page)
            k_cache[pages, pos % page] = k
            v_cache[pages, pos % page] = v
        else:
            rows = idx if idx is not None else torch.arange(b, device=device)  # each sequence's cache row
            k_cache[rows[:, None], pos] = k
            v_cache[rows[:, None], pos] = v
    # every sequence has at most sc keys: a window side that hides nothing at (sq, sc) hides nothing in any of them
    local, window, causal = _loosen_window(local, window, causal, sq, sc)
    if idx is None and not paged and cache_leftpad is None and not isinstance(cache_seqlens, torch.Tensor):
        # equal caches: a host int
        n_keys = min((sc if cache_seqlens is None else int(cache_seqlens)) + s_new, sc)
        local, window, causal = _loosen_window(local, window, causal, sq, n_keys)
        if n_keys > 0 and not local and not cap and variants.kvcache_dense(d, sq, num_splits, b, n_keys, capturing) \
                and (_interpreter_active() or _is_sm90(device)):
            # a prefill chunk or a decode step against equal caches: the dense kernels on the cache's first n_keys rows
            # (views)
            out, lse = flash_attn_func(q, k_cache[:, :n_keys], v_cache[:, :n_keys], softmax_scale=softmax_scale,
                                       causal=causal, return_lse=True)
            return (out, lse) if return_softmax_lse else out
    # (start, end) rows of each sequence's keys: within its cache row (from cache_leftpad, clamped to [0, end]), or
    # logical rows [0, n) of its pages (a length past the cache is clamped to it); one launch (kvcache_bounds), or
    # with the new tokens' writes (kvcache_append)
    if bounds is None:
        bounds = _kvcache_bounds(lens, cache_leftpad, cache_batch_idx, s_new, sc, paged, aux)
    swap = None if num_splits else _kvcache_swap_choice(q, k_cache, v_cache, sq, paged, idx, local, cap,
                                                         (page, sc) if paged else None)
    if swap is not None:  # (session 67) a decode step on the swap decode kernels' KV-cache builds
        out, lse_t, kept = _kvcache_swap(q, k_cache, v_cache, bounds, swap[1], softmax_scale, swap[0],
                                         block_table if paged else None)
        if sig is not None and aux and kept is not None and (rotary is not None or rotary_cos is None):
            _keep_kvcache_plan(sig, aux[0], _SwapKv(kept), q, cache_seqlens, lens, (cache_batch_idx, cache_leftpad),
                               bool(s_new and KVCACHE_APPEND_FUSED), rotary is not None)
        return (out, lse_t.t().unsqueeze(-1).contiguous()) if return_softmax_lse else out
    record = [] if sig is not None else None
    out, lse = _batched_varlen(q, k_rows, v_rows, bounds, sc, softmax_scale, causal, local, window, cap, k_stride=2,
                               paged=(block_table, page) if paged else None, want_lse=return_softmax_lse,
                               record=record, num_splits=num_splits)
    if sig is not None and aux and record and (rotary is not None or rotary_cos is None):
        _keep_kvcache_plan(sig, aux[0], record[0], q, cache_seqlens, lens, (cache_batch_idx, cache_leftpad),
                           bool(s_new and KVCACHE_APPEND_FUSED), rotary is not None)
    return (out, lse) if return_softmax_lse else out


def _kv_meta(t):
    """A tensor argument's public metadata for _kvcache_signature (None for None; False: not a plain tensor)."""
    if t is None:
        return None
    if type(t) is torch.Tensor:
        return t.shape, t.stride(), t.dtype, t.device
    return False


def _kvcache_signature(q, k_cache, v_cache, k, v, rotary_cos, rotary_sin, cache_seqlens, cache_batch_idx,
                       cache_leftpad, block_table, softmax_scale, causal, window_size, softcap, alibi_slopes,
                       return_softmax_lse, rotary_interleaved=True, num_splits=0):
    """A flash_attn_with_kvcache call's public metadata (every argument's shape, stride, dtype and device, the scalars,
    the switches its route reads), or None where the call takes every check (an argument not of a plain type,
    alibi_slopes)."""
    if alibi_slopes is not None or type(causal) is not bool \
            or type(return_softmax_lse) is not bool or type(window_size) is not tuple \
            or not (softmax_scale is None or type(softmax_scale) in (float, int)) or type(softcap) not in (float, int):
        return None
    if cache_seqlens is None:
        lens = None
    elif type(cache_seqlens) is int:
        lens = ("int", cache_seqlens)
    else:
        lens = _kv_meta(cache_seqlens)
    metas = (_kv_meta(q), _kv_meta(k_cache), _kv_meta(v_cache), _kv_meta(k), _kv_meta(v), lens,
             _kv_meta(cache_batch_idx), _kv_meta(cache_leftpad), _kv_meta(block_table), _kv_meta(rotary_cos),
             _kv_meta(rotary_sin), ("interleaved", rotary_interleaved) if type(rotary_interleaved) is bool else False)
    if False in metas or metas[0] is None or metas[1] is None or metas[2] is None:
        return None
    return ("kvcache", metas, type(softmax_scale), softmax_scale, causal, window_size, type(softcap), softcap,
            return_softmax_lse, num_splits, KVCACHE_APPEND_FUSED, KVCACHE_BOUNDS_FUSED, KVCACHE_ROTARY_FUSED,
            variants.KVCACHE_DENSE_MAX_Q, variants.KVCACHE_DENSE_EAGER, _env_switches())


def _tma_rows_ok(t) -> bool:
    """Whether a (B, S, H, D) tensor can be read through TMA descriptors as the decode kernels build them: a unit last
    stride, the others and the base 16-byte aligned (public: metadata)."""
    size = t.element_size()
    return t.stride(-1) == 1 and t.data_ptr() % 16 == 0 and all(st * size % 16 == 0 for st in t.stride()[:-1])


def _kvcache_swap_choice(q, k_cache, v_cache, sq, paged, idx, local, cap, pages=None):
    """(session 67) variants.decode_kv_choice for a flash_attn_with_kvcache call (checked) that its KV-cache builds
    take: one query a sequence, caches in their own rows (no cache_batch_idx), no window
    that binds, no soft-cap, on an H100 / H200, TMA-readable q and caches, num_splits 0 (the caller's count runs the
    portable kernel, as documented); else None (the varlen route). (Session 68, prepared, off:
    variants.SWAP_DECODE_KV_PAGED) a paged cache, pages = (page size, a sequence's capacity):
    variants.decode_kv_paged_choice. Public: shapes, strides, options, the GPU."""
    if sq != 1 or (paged and (pages is None or not variants.SWAP_DECODE_KV_PAGED)) or idx is not None or local \
            or cap or not variants.SWAP_DECODE_KV or _interpreter_active() \
            or not _is_sm90(q.device) or q.dtype not in (torch.float16, torch.bfloat16) \
            or not all(_tma_rows_ok(t) for t in (q, k_cache, v_cache)):
        return None
    from .kernels import dispatch
    b, _, h, d = q.shape
    if paged:
        return variants.decode_kv_paged_choice(q.dtype, d, b, h, k_cache.shape[2], pages[1], pages[0],
                                               dispatch.sm_count(q.device))
    return variants.decode_kv_choice(q.dtype, d, b, h, k_cache.shape[2], k_cache.shape[1], dispatch.sm_count(q.device))


def _kvcache_swap(q, k_cache, v_cache, bounds, parts, softmax_scale, variant=None, block_table=None):
    """q (B, 1, H, D) against the caches' key rows `bounds` (_kvcache_bounds') on the merged / split build's KV-cache
    form in `parts` parts (sm90_decode.forward with bounds), or (session 68) where `variant` is the whole-pair build's
    form, in `parts` programs of whole pairs (sm90_decode.stream_forward with bounds): (out (B, 1, H, D), lse_t (H, B),
    the Kept launcher or None). block_table (session 68; prepared, off: SWAP_DECODE_KV_PAGED): the paged
    forms' (whole-pair; session 69 stream, merged and split), whose Kept (session 69, not yet run on a GPU) takes the
    table: the call's plan keeps it."""
    from .kernels import sm90_decode
    b, _, h, d = q.shape
    scale = _check_scale(softmax_scale, d, "softmax_scale")
    out = _empty(q.shape, q.dtype, q.device)
    lse_t = _empty((h, b), torch.float32, q.device)
    cfg = variants.SWAP_DECODE_CONFIG
    with _on_device(q):
        if variant is not None and variants.decode_base_kernel(variant.kernel) == variants.SWAP_DECODE_STREAM_KERNEL:
            kept = sm90_decode.stream_forward(q, k_cache, v_cache, out, scale, parts, lse_t, config=variant.config,
                                              pair_units=variants.stream_pair_units(variant), bounds=bounds,
                                              block_table=block_table)
        else:
            kept = sm90_decode.forward(q, k_cache, v_cache, out, scale, parts, cfg.block_n, cfg.num_stages, lse_t,
                                       None, merged=True, bounds=bounds, block_table=block_table)
    return out, lse_t, kept


class _SwapKv:
    """A KV-cache plan's attention (_KvcachePlan.varlen) on the swap decode kernels' KV-cache builds (session 67): their
    Kept launcher (sm90_decode.Kept) called with _kvcache_planned's arguments; no workspace of the plan's (splits 0:
    the Kept allocates its own)."""
    __slots__ = ("kept", "scale", "splits")

    def __init__(self, kept):
        self.kept, self.scale, self.splits = kept, 1.0, 0

    def launcher(self, args, scale, device_index):
        q, k_cache, v_cache, out, lse, _cu, bounds, table = args[:8]  # (table: the block table or None; session 69)
        self.kept(q, k_cache, v_cache, out, lse, None, device_index, bounds, table)


class _KvcachePlan:
    """A flash_attn_with_kvcache call's plan (see _Plan), where it ran the portable varlen kernel through kept
    launchers: the launcher of kvcache_append (append) or kvcache_bounds (aux), the varlen call's _VarlenPlan, its query
    offsets (cu_q), the lengths tensor of an int or absent cache_seqlens (lens, else None), the device, and whether
    kvcache_append rotates the new keys and q (rotary; per_row and interleaved are in its launcher's key)."""
    __slots__ = ("aux", "append", "varlen", "cu_q", "lens", "device", "rotary")

    def __init__(self, aux, append, varlen, cu_q, lens, device, rotary=False):
        self.aux, self.append, self.varlen, self.cu_q, self.lens, self.device = aux, append, varlen, cu_q, lens, device
        self.rotary = rotary


def _keep_kvcache_plan(sig, aux, varlen, q, cache_seqlens, lens, others, append, rotary=False):
    """Keep the plan of a flash_attn_with_kvcache call that ran its key rows (and new tokens) and the portable varlen
    kernel through kept launchers, under sig: not the Hopper kernel, batch slices, gathered pages or the dense kernels,
    nor a call whose q is not a view of its rows, whose per-sequence tensors were copied first (not contiguous), whose
    launchers do not take base addresses (_takes_addresses: the plan passes its scratch memory so), or one made during
    a CUDA graph's capture (its constant tensors may not be filled yet): those keep taking the checks."""
    from .kernels import dispatch
    swap = isinstance(varlen, _SwapKv)  # (session 67: the swap decode kernels' Kept, which takes addresses)
    if aux is None or varlen is None or (not swap and (
            varlen.dense is not None or varlen.launcher is None
            or varlen.variant.kernel in variants.VARLEN_SM90_NAMES or isinstance(varlen.launcher, dispatch._Slices)
            or not _takes_addresses(varlen.launcher))) or not _takes_addresses(aux) \
            or not q.is_cuda or torch.cuda.is_current_stream_capturing() \
            or not all(t is None or t.is_contiguous() for t in (lens,) + tuple(others)):
        return
    b, sq, h, d = q.shape
    try:
        q.view(b * sq, h, d)
    except RuntimeError:
        return
    own = None if isinstance(cache_seqlens, torch.Tensor) else lens  # the lengths of an int or absent cache_seqlens
    _keep_plan(sig, _KvcachePlan(aux, append, varlen, _dense_offsets(q.device, b, sq), own, q.device, rotary))


def _scratch(device, sizes):
    """One allocation holding buffers of these byte sizes (each at a 256-byte boundary): (the tensor, to be kept alive
    until the launches are queued, and the buffers' base addresses). For kept launchers that take addresses
    (_takes_addresses); the allocator's stream order keeps the memory until the queued kernels have run."""
    ends = [0]
    for n in sizes:
        ends.append(ends[-1] + (n + 255) // 256 * 256)
    scratch = torch.empty(ends[-1], dtype=torch.uint8, device=device)
    base = scratch.data_ptr()
    return scratch, [base + e for e in ends[:-1]]


def _workspace_bytes(total_q, heads, head_dim, splits):
    """The byte sizes of a split varlen launch's workspace (triton_fwd.varlen_workspace_shapes; none without a split)."""
    from .kernels import triton_fwd
    if splits <= 1:
        return []
    return [4 * math.prod(shape) for shape in triton_fwd.varlen_workspace_shapes(total_q, heads, head_dim, splits)]


def _takes_addresses(launcher):
    """Whether a kept launcher takes base addresses (ints) for its tensors: dispatch._Launcher's argument template
    (kernels with no descriptor and no per-call workspace), or a pair of such."""
    from .kernels import dispatch
    if isinstance(launcher, dispatch._Pair):
        return _takes_addresses(launcher.first) and _takes_addresses(launcher.second)
    return isinstance(launcher, dispatch._Launcher) and launcher.template is not None


def _kvcache_planned(plan, q, k_cache, v_cache, k, v, cache_seqlens, idx, leftpad, block_table, want_lse, cos=None,
                     sin=None):
    """flash_attn_with_kvcache through its plan (_KvcachePlan): the checks passed for this signature before, so only
    the bases' alignment is checked; the key rows (and new tokens) and the attention launched by the kept launchers,
    as the checked path launches them. Returns the call's result, or None where the plan does not apply (a misaligned
    base, the fast path off, the plan not of this kind): the checked path then runs."""
    from .kernels import dispatch
    if type(plan) is not _KvcachePlan or not dispatch._fast_path_allowed():
        return None
    lens = plan.lens if plan.lens is not None else cache_seqlens
    ptrs = q.data_ptr() | k_cache.data_ptr() | v_cache.data_ptr() | lens.data_ptr()
    for t in (k, v, idx, leftpad, block_table, cos, sin):
        if t is not None:
            ptrs |= t.data_ptr()
    if ptrs % 16:
        return None
    _check_no_grad(q, k_cache, v_cache)
    b, sq, h, d = q.shape
    device, dev = plan.device, plan.device.index
    out = _empty(q.shape, q.dtype, device)
    vp = plan.varlen
    # the key rows, lse where not returned, and a split call's workspace: one scratch allocation, passed to the kept
    # launchers as base addresses (they read nothing else of them)
    scratch, ptrs = _scratch(device, [8 * b] + ([] if want_lse else [4 * h * b * sq]) +
                             _workspace_bytes(b * sq, h, d, vp.splits))
    bounds = ptrs.pop(0)
    lse = _empty((h, b * sq), torch.float32, device) if want_lse else ptrs.pop(0)
    ws = tuple(ptrs)
    pad = leftpad if leftpad is not None else lens
    rows = idx if idx is not None else lens
    with _on_device(q):
        if plan.append:
            tensors = (lens, pad, rows, bounds, k, v, k_cache, v_cache, block_table if block_table is not None else lens)
            if plan.rotary:  # q rotated into its own buffer, which the attention then reads
                q_rot = torch.empty(q.shape, dtype=q.dtype, device=device)
                tensors += (q, q_rot, cos, sin)
                q = q_rot
            plan.aux(tensors, 1.0, dev)
        else:
            plan.aux((lens, pad, rows, bounds), 1.0, dev)
        vp.launcher((q, k_cache, v_cache, out, lse, plan.cu_q, bounds, block_table) + ws, vp.scale, dev)
    if want_lse:
        return out, lse.view(h, b, sq).permute(1, 0, 2).contiguous()
    return out


KVCACHE_BOUNDS_FUSED = True  # False: the torch form of session 33 (scripts/kvcache_bounds_ab.py's A/B)
KVCACHE_APPEND_FUSED = True  # False: the new tokens written by torch indexing (before session 35; kvcache_host's A/B)
KVCACHE_PLANS = True  # False: every flash_attn_with_kvcache call takes the checks (before session 35; the same A/B)
KVCACHE_ROTARY_FUSED = True  # False: rotary embeddings by torch operations (_rotary_qk; before session 35)


def _tidy(t):
    """t, or a contiguous copy where it is not contiguous and 16-byte aligned (the launchers' requirement)."""
    aligned = t is None or (t.is_contiguous() and t.data_ptr() % 16 == 0)
    return t if aligned else t.clone(memory_format=torch.contiguous_format)


def _kvcache_append(lens, leftpad, idx, k, v, k_rows, v_rows, block_table, sc, page, paged, record=None, q=None,
                    rotary=None):
    """flash_attn_with_kvcache's new tokens k, v (B, S_new, H_kv, D) written at positions lens[b] .. + S_new - 1 of
    the cache's rows k_rows, v_rows (a position outside [0, sc), or a page outside the cache, is not written), and the
    (start, end) key rows (_kvcache_bounds'), by one launch of triton_fwd.kvcache_append. Public: lengths, rows, pads,
    the block table; the new tokens reach only the cache. record (a list): the launcher this call took is appended to
    it (None where it went through the JIT). rotary (cos, sin, per_row, interleaved; checked): the new keys rotated
    before they are written and q (B, Sq, H, D) rotated into a new tensor in the same launch (as _rotary_qk). Returns
    the key rows, (2B,) int32, and the rotated q (None without rotary)."""
    from .kernels import dispatch
    lens, leftpad, idx = _tidy(lens), _tidy(leftpad), _tidy(idx)
    k, v = _aligned_base(k), _aligned_base(v)
    bounds = torch.empty(2 * lens.shape[0], dtype=torch.int32, device=lens.device)  # (every entry written)
    rot = q_out = None
    if rotary is not None:
        q = _aligned_base(q)
        q_out = torch.empty(q.shape, dtype=q.dtype, device=q.device)
        rot = (q, q_out, _aligned_base(rotary[0]), _aligned_base(rotary[1])) + tuple(rotary[2:])
    with _on_device(lens):
        launcher = dispatch.launch_kvcache_append(lens, leftpad, idx, bounds, k, v, k_rows, v_rows,
                                                  block_table if paged else None, sc, page, rot)
    if record is not None:
        record.append(launcher)
    return bounds, q_out


def _aligned_base(t):
    """t, or a copy where its base is not 16-byte aligned (any strides)."""
    return t if t.data_ptr() % 16 == 0 else t.clone(memory_format=torch.contiguous_format)


def _kvcache_bounds(lens, leftpad, idx, s_new, sc, paged, record=None):
    """flash_attn_with_kvcache's (start, end) key rows, (2B,) int32, by one launch of triton_fwd.kvcache_bounds (seven
    small torch operations before session 34): lens, leftpad, idx (B,) int32 (checked; leftpad, idx may be None),
    copied first where not contiguous and 16-byte aligned (the binary's specialisation). Public: lengths, rows, pads.
    record: as _kvcache_append's."""
    from .kernels import dispatch
    if not KVCACHE_BOUNDS_FUSED:
        ends = torch.clamp(lens + s_new, 0, sc)
        rows = idx if idx is not None else torch.arange(lens.shape[0], device=lens.device)
        start = torch.zeros_like(ends) if paged else rows.to(torch.int32) * sc
        first = start if leftpad is None else start + torch.minimum(torch.clamp(leftpad, min=0), ends)
        return torch.stack((first, start + ends), 1).reshape(-1)

    lens, leftpad, idx = _tidy(lens), _tidy(leftpad), _tidy(idx)
    bounds = torch.empty(2 * lens.shape[0], dtype=torch.int32, device=lens.device)  # (every entry written)
    with _on_device(lens):
        launcher = dispatch.launch_kvcache_bounds(lens, leftpad, idx, bounds, s_new, sc, paged)
    if record is not None:
        record.append(launcher)
    return bounds


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    """Drop-in for torch.nn.functional.scaled_dot_product_attention on the cases it covers.

    Layout (B, H, S, D). As in PyTorch, is_causal aligns the mask to the top-left corner, and a
    different number of key/value heads needs enable_gqa=True. attn_mask and dropout are not supported.
    """
    if attn_mask is not None:
        raise NotImplementedError("attn_mask: arbitrary masks are not supported; use is_causal or pass None")
    if dropout_p != 0.0:
        raise NotImplementedError(f"dropout_p: only 0.0 is supported, got {dropout_p}")
    sig = _signature("sdpa", query, key, value, is_causal, scale, bool(enable_gqa))
    plan = _cached_plan(sig, query, key, value)
    if plan is not None:
        q, k, v = (t.transpose(1, 2) for t in (query, key, value))
    else:
        layout = "(batch, heads, seqlen, head_dim)"
        for name, t in (("query", query), ("key", key), ("value", value)):
            _check_tensor(name, t, 4, layout)
        if not isinstance(is_causal, bool):
            raise TypeError(f"is_causal: expected a bool, got {type(is_causal).__name__}")
        if query.shape[1] != key.shape[1] and not enable_gqa:
            raise ValueError(f"key: {key.shape[1]} key/value heads differ from {query.shape[1]} query heads; "
                             "pass enable_gqa=True for grouped-query attention (as in PyTorch)")
        q, k, v = (t.transpose(1, 2) for t in (query, key, value))
        wide = []
        _, sq, _, _, _, d = _check_inputs(q, k, v, layout, names=("query", "key", "value"), wide=wide)
        s = _check_scale(scale, d, "scale")
        plan = _new_plan(sig, q, k, is_causal, s, 0, wide)
    _check_no_grad(q, k, v)
    b, sq, h, d = q.shape
    out = _empty((b, h, sq, d), query.dtype, query.device)
    _forward(plan, q, k, v, out.transpose(1, 2))
    return out
