"""Static constant-time audit: prove from the SASS that no secret reaches a branch, an address, a memory
predicate or a variable-latency subroutine.

    audit_cubin(path_or_bytes, kernel=None, public_param_offsets=())  -> [FunctionReport]
    audit_triton(fn, args, kwargs, public_params=())                 -> [FunctionReport]
    audit_shipped(jobs=None)                                         -> [VariantReport]
    compile_shipped(jobs=None)                                       -> (binaries, compiled now)
"""
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from . import compile as _compile
from .taint import KINDS, PARAM_BASE as PARAM_BASE_SM90, Finding, FunctionReport, audit_sass

__all__ = ["audit_cubin", "audit_triton", "audit_shipped", "compile_shipped", "KINDS", "Finding", "FunctionReport", "VariantReport"]


def audit_cubin(cubin, kernel=None, public_param_offsets=(), neutral_offsets=(), text=None):
    """Audit a cubin (path or bytes), or any ELF with sm_90 device code that cuobjdump reads. text: its
    `cuobjdump -sass`, where the caller has it already."""
    if isinstance(cubin, (bytes, bytearray)):
        data = bytes(cubin)
        text = text if text is not None else _compile.sass_text(data)
    else:
        text = text if text is not None else _compile.sass_text_of_file(str(cubin))
        with open(str(cubin), "rb") as f:
            data = f.read()
    reports = audit_sass(text, kernel=kernel, public_param_offsets=public_param_offsets,
                         jump_tables=_compile.jump_tables(data), neutral_offsets=neutral_offsets)
    if not reports:
        raise ValueError("no sm_90 device function found in the input")
    return reports


def _align(cur, n):
    return (cur + n - 1) // n * n


def param_offsets(fn, signature) -> dict:
    """Constant-bank offsets of a Triton kernel's pointer and scalar parameters (sm_90 ABI: natural
    alignment from 0x210). A host TMA descriptor of rank r (signature `tensordesc<dtype[shape], layout>`) is
    passed as Triton 3.6 expands it: the 128-byte CUtensorMap aligned to 64 bytes, then r int32 sizes and r
    int64 strides. Any other parameter kind ends the mapping. audit_triton checks every offset it uses
    against the SASS (a parameter the kernel reads appears there)."""
    sizes = {"i1": 1, "i8": 1, "u8": 1, "i16": 2, "u16": 2, "fp16": 2, "bf16": 2, "i32": 4, "u32": 4,
             "fp32": 4, "i64": 8, "u64": 8, "fp64": 8}
    offs, cur = {}, PARAM_BASE_SM90
    for name in fn.arg_names:
        ty = signature.get(name)
        if ty == "constexpr":
            continue
        if isinstance(ty, str) and ty.startswith("tensordesc<") and "[" in ty:
            rank = len(ty[ty.index("[") + 1:ty.index("]")].split(","))
            cur = _align(cur, 64) + 128
            cur = _align(cur, 4) + 4 * rank
            cur = _align(cur, 8) + 8 * rank
            continue
        if ty is None or not (ty.startswith("*") or ty in sizes):
            break
        size = 8 if ty.startswith("*") else sizes[ty]
        cur = _align(cur, size)
        offs[name] = cur
        cur += size
    return offs


def audit_triton(fn, args, kwargs, public_params=(), use_cache=True, compiled=None, text=None):
    """Compile a @triton.jit kernel for sm_90a as the JIT would for these arguments, and audit it.

    public_params: names of pointer parameters whose data is public (for example sequence offsets):
    loads whose addresses derive only from them are not taint sources. compiled, text: its compile_offline result
    and SASS listing, where the caller has them (_audit_batch).
    """
    if compiled is None:
        compiled = _compile.compile_offline(fn, args, kwargs, use_cache=use_cache)
    offsets, neutral = (), ()
    if public_params:
        signature = _compile.bind(fn, args, kwargs)[0]
        table = param_offsets(fn, signature)
        # scalar parameters are public values that index into a public buffer (both words of 64-bit ones)
        neutral = [o + w for n, o in table.items() if not signature[n].startswith("*") for w in (0, 4)]
        missing = [p for p in public_params if p not in table]
        if missing:
            raise ValueError(f"public_params {missing}: not pointer/scalar parameters the offset table places; "
                             f"known: {sorted(table)}")
        offsets = [table[p] for p in public_params]
        if text is None:
            text = _compile.sass_text(compiled.cubin)
        unseen = [p for p, o in zip(public_params, offsets) if f"c[0x0][{o:#x}]" not in text]
        if unseen:  # the table disagrees with the compiled parameter layout: refuse rather than trust it
            raise ValueError(f"public_params {unseen}: the kernel reads no constant at the computed offsets "
                             f"{[hex(table[p]) for p in unseen]}")
    return audit_cubin(compiled.cubin, kernel=compiled.name, public_param_offsets=offsets,
                       neutral_offsets=neutral, text=text), compiled


@dataclass
class VariantReport:
    variant: str
    kernel: str
    reports: list
    resources: dict
    cubin_sha256: str
    cached: bool

    @property
    def ok(self):
        return all(r.ok for r in self.reports)


def placeholder_launch(variant, device="cpu"):
    """(grid, args, kwargs) of a shipped variant on placeholder tensors (uninitialised, on `device`): the shape
    arguments are not specialised, so any arguments with the launch's types give the binary every call launches.
    Packed grouped-query builds (TileConfig.pack) take grouped heads (variants.pack_heads): `pack` queries of groups of
    block_m // pack heads."""
    import torch
    from ..kernels import dispatch, variants as _variants
    d, c = variant.head_dim, variant.config
    # (the decode builds: h query heads over 2 key/value heads, a group whose NQ the launcher picks is the build's,
    # c.block_m: 8 heads at NQ = 8, 32 at NQ = 16; session 66; the other kernels set their own below)
    h = 2 * c.block_m if c.block_m > 8 else 8
    if _variants.decode_base_kernel(variant.kernel) == _variants.SWAP_DECODE_STREAM_KERNEL:
        # one query, h heads over 2 key/value heads, 6 programs (the PAIR_UNITS builds: 3, at most the 4 pairs; the
        # KV-cache form, session 68: with 2 sequences' key rows)
        from ..kernels import sm90_decode
        n = _variants.SWAP_DECODE_STREAM_PARTS
        units = _variants.stream_pair_units(variant)
        paged = variant.kernel in _variants.SWAP_DECODE_KV_PAGED_KERNELS.values()  # (session 68: 6 pages of 2 blocks)
        q = torch.empty(2, 1, h, d, dtype=variant.dtype, device=device)
        k = torch.empty(6 if paged else 2, (2 if paged else 5) * c.block_n, 2, d, dtype=variant.dtype, device=device)
        return sm90_decode.stream_launch_args(q, k, torch.empty_like(k), torch.empty(n, 2, h, d, device=device),
                                              torch.empty(n, h, 2, device=device), torch.empty_like(q),
                                              torch.empty(h, 2, device=device),
                                              torch.empty(4 * n, dtype=torch.int64, device=device), 0.1,
                                              3 if units else 6, n, c.block_n, c.num_stages, c.num_warps,
                                              pair_units=units,
                                              bounds=torch.empty(4, dtype=torch.int32, device=device)
                                              if variant.kernel != _variants.SWAP_DECODE_STREAM_KERNEL else None,
                                              block_table=torch.empty(2, 3, dtype=torch.int32, device=device)
                                              if paged else None)
    base = _variants.decode_base_kernel(variant.kernel)
    kv = base != variant.kernel
    if base in (_variants.SWAP_DECODE_KERNEL, _variants.SWAP_DECODE_MERGED_KERNEL, _variants.SWAP_DECODE_SPLIT_KERNEL):
        # one query, h heads over 2 key/value heads, 4 parts (merged: into out and lse, a done-word a part; split:
        # the least parts it takes; the KV-cache forms, session 67: with 2 sequences' key rows)
        from ..kernels import sm90_decode
        split = _variants.SWAP_DECODE_SPLIT[d] if base == _variants.SWAP_DECODE_SPLIT_KERNEL else 0
        n = split or 4
        q = torch.empty(2, 1, h, d, dtype=variant.dtype, device=device)
        k = torch.empty(2, n * c.block_n, 2, d, dtype=variant.dtype, device=device)
        paged = variant.kernel in _variants.SWAP_DECODE_KV_PAGED_KERNELS.values()  # (session 69: 6 pages of 2 blocks)
        if paged:
            k = torch.empty(6, 2 * c.block_n, 2, d, dtype=variant.dtype, device=device)
        merge = (torch.empty_like(q), torch.empty(h, 2, device=device), torch.empty(4 * n, dtype=torch.int64,
                 device=device)) if base != _variants.SWAP_DECODE_KERNEL else None
        return sm90_decode.launch_args(q, k, torch.empty_like(k), torch.empty(n, 2, h, d, device=device),
                                       torch.empty(n, h, 2, device=device), 0.1, n, c.block_n, c.num_stages,
                                       c.num_warps, merge=merge, split=split,
                                       bounds=torch.empty(4, dtype=torch.int32, device=device) if kv else None,
                                       block_table=torch.empty(2, 3, dtype=torch.int32, device=device)
                                       if paged else None)
    if variant.kernel in _variants.VARLEN_KERNELS.values() or variant.kernel in _variants.VARLEN_COMBINES.values() \
            or variant.kernel in _variants.VARLEN_SM90_NAMES:
        # packed rows (TOTAL, H, D), int32 sequence offsets; split builds: 4 parts into a float32 workspace
        q = torch.empty(300, 4, d, dtype=variant.dtype, device=device)
        k = torch.empty(200, 2, d, dtype=variant.dtype, device=device)
        cu = torch.empty(3, dtype=torch.int32, device=device)
        if variant.kernel in _variants.VARLEN_SM90_NAMES:  # out with rows in front (api._varlen_out)
            out = torch.empty(364, 4, d, dtype=variant.dtype, device=device)[c.block_m // 2:]
            paged = None
            if variant.kernel in _variants.VARLEN_SM90_PAGED_KERNELS.values():  # k, v: 2 pages of block_n, a 2x7 table
                k = torch.empty(2 * c.block_n, 2, d, dtype=variant.dtype, device=device)
                paged = (torch.empty(2, 7, dtype=torch.int32, device=device), c.block_n, 2)
            return dispatch.varlen_launch_args(variant, q, k, torch.empty_like(k), out,
                                               torch.empty(4, 300, device=device), cu, torch.empty_like(cu), 150, 0.1,
                                               paged=paged)
        split = "_split" in variant.kernel or variant.kernel in _variants.VARLEN_COMBINES.values()
        group = 2 if "_gqa" in variant.kernel else 1
        ws = (torch.empty(4, 300, 4, d, device=device), torch.empty(4, 4, 300, device=device)) if split else (None, None)
        # paged builds: k, v as 200 rows of 25 pages of 8 (per-block form: 3 pages of block_n rows, for its check of
        # the page size; the binary is the same for any), a block table of 2 sequences x 7 pages
        page = c.block_n if variant.kernel.endswith("_blocks") else 8
        paged = (torch.empty(2, 7, dtype=torch.int32, device=device), page, 200 // page) \
            if "_paged" in variant.kernel else None
        return dispatch.varlen_launch_args(variant, q, k, torch.empty_like(k), torch.empty_like(q),
                                           torch.empty(4, 300, device=device), cu, torch.empty_like(cu), 150, 0.1,
                                           group=group, splits=4 if split else 1, ws=ws, paged=paged)
    sq, h = (c.pack, 2 * (c.block_m // c.pack)) if c.pack else (128, 4)
    q = torch.empty(2, sq, h, d, dtype=variant.dtype, device=device)
    k = torch.empty(2, 128, 2, d, dtype=variant.dtype, device=device)
    return dispatch.launch_args(variant, q, k, torch.empty_like(k), torch.empty_like(q),
                                torch.empty(2, h, sq, device=device), 0.1, variant.causal, 128 - sq)


def variant_launch(variant):
    """(kernel function, args, kwargs) of a shipped variant on CPU placeholder tensors (placeholder_launch), for
    compile_offline: the binary the JIT would launch."""
    from ..kernels import dispatch
    _, args, kwargs = placeholder_launch(variant)
    return dispatch.kernel_fn(variant.kernel), args, kwargs


def _audit_batch(batch):
    """Audit a list of jobs (shipped variants, or indices into audited_kernels()), whose binaries are disassembled by
    one nvdisasm run (_compile.sass_texts): a VariantReport each."""
    jobs = []  # (label, fn, args, kwargs, public params)
    others = audited_kernels() if any(isinstance(item, int) for item in batch) else []  # built once per batch
    for item in batch:
        if isinstance(item, int):
            name, fn, args, kwargs, public = others[item]
            jobs.append((name + (f" (public: {', '.join(public)})" if public else ""), fn, args, kwargs, public))
        else:
            jobs.append((item.name, *variant_launch(item), item.public_loads))
    compiled = [_compile.compile_offline(fn, args, kwargs) for _, fn, args, kwargs, _ in jobs]
    texts = _compile.sass_texts([c.cubin for c in compiled])
    out = []
    for (label, fn, args, kwargs, public), c, text in zip(jobs, compiled, texts):
        reports, _ = audit_triton(fn, args, kwargs, public_params=public, compiled=c, text=text)
        res = _compile.resource_usage(c.cubin).get(c.name, {})
        out.append(VariantReport(label, c.name, reports, res, c.sha256, c.cached))
    return out


def audited_kernels():
    """The kernels besides the attention variants: the timing envelope's and the varlen equal-length guard's,
    as (name, fn, args, kwargs, public_params)."""
    from ..envelope import audited_kernels as envelope_kernels
    from ..kernels.triton_fwd import audited_kernels as guard_kernels
    return envelope_kernels() + guard_kernels()


def _binary_groups(shipped):
    """{(binary key, declarations): variants}: variants whose launches compile to one binary with the same
    declarations (D=96 / 192 run D=128 / 256's builds, sm90_fwd.kernel_head_dim) are compiled and audited once."""
    groups = {}
    for v in shipped:
        fn, args, kwargs = variant_launch(v)
        groups.setdefault((_compile.binary_key(fn, args, kwargs), v.secret_args, v.public_loads), []).append(v)
    return groups


def _compile_variant(variant):
    return not _compile.compile_offline(*variant_launch(variant)).cached


def _compile_envelope_kernel(index):
    _name, fn, args, kwargs, _public = audited_kernels()[index]
    return not _compile.compile_offline(fn, args, kwargs).cached


def compile_shipped(jobs=None):
    """Compile every binary audit_shipped reads into the cubin cache (compile.cache_dir), in parallel: (binaries,
    how many were compiled now rather than found there). The audit's own time is then its analysis; compiling depends
    on what the machine's caches hold (a kernel source edit recompiles every binary that reaches it)."""
    from ..kernels import variants as _variants
    todo = [(_compile_variant, members[0]) for members in _binary_groups(_variants.audited_variants()).values()]
    todo += [(_compile_envelope_kernel, i) for i in range(len(audited_kernels()))]
    return len(todo), sum(_run_jobs(todo, jobs))


def audit_shipped(jobs=None, variants=None):
    """Compile and audit every shipped kernel: the attention variants and the timing envelope's kernels."""
    from ..kernels import variants as _variants
    shipped = variants if variants is not None else _variants.audited_variants()
    groups = _binary_groups(shipped)
    firsts = [members[0] for members in groups.values()]
    items = firsts + (list(range(len(audited_kernels()))) if variants is None else [])
    # batches of AUDIT_BATCH binaries, one nvdisasm run each, spread over the workers
    todo = [(_audit_batch, items[i:i + AUDIT_BATCH]) for i in range(0, len(items), AUDIT_BATCH)]
    done = [r for batch in _run_jobs(todo, jobs) for r in batch]
    by_name = {r.variant: r for r in done[:len(firsts)]}
    of = {v.name: by_name[members[0].name] for members in groups.values() for v in members}
    return [replace(of[v.name], variant=v.name) for v in shipped] + done[len(firsts):]


AUDIT_BATCH = 16  # binaries per nvdisasm run in audit_shipped (its start-up, about 0.4 s, is paid once a batch)


def _run_jobs(todo, jobs=None):
    """[f(x) for f, x in todo], over `jobs` processes (default: one per core, at most one per job)."""
    jobs = jobs or min(len(todo), os.cpu_count() or 1)
    if jobs <= 1:
        return [f(x) for f, x in todo]
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(_call, todo))


def _call(job):
    f, x = job
    return f(x)
