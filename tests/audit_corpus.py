"""Planted-leak corpus: small Triton kernels, each with exactly one leak of a known kind, and clean
kernels that use secrets only arithmetically. The auditor must tell them apart."""
import torch
import triton
import triton.language as tl

B = 128


@triton.jit
def leak_if(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if tl.sum(x) > 0:  # control flow on a secret
        acc = tl.zeros([BLOCK], tl.float32)
        for i in range(n):
            acc = acc * 0.5 + tl.sin(x + i)
        x = acc
    tl.store(y_ptr + offs, x)


@triton.jit
def leak_loop_bound(x_ptr, y_ptr, n_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    n = tl.load(n_ptr)  # a secret trip count
    acc = tl.zeros([BLOCK], tl.float32)
    for i in range(n):
        acc += tl.load(x_ptr + offs) * i
    tl.store(y_ptr + offs, acc)


@triton.jit
def leak_early_return(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if tl.max(x) > 100.0:  # early exit on a secret
        return
    tl.store(y_ptr + offs, x * 2)


@triton.jit
def leak_gather(x_ptr, idx_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs)  # secret index
    tl.store(y_ptr + offs, tl.load(x_ptr + (idx & 1023)))


@triton.jit
def leak_store_mask(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, x, mask=x > 0)  # which stores happen depends on the secret


@triton.jit
def leak_ieee_div(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(y_ptr + offs, tl.math.div_rn(x, y))  # IEEE division: slow path on some operands


@triton.jit
def leak_shuffle_lane(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    lane = x & 31  # secret lane
    v = tl.inline_asm_elementwise("shfl.sync.idx.b32 $0, $1, $2, 0x1f, 0xffffffff;", "=r,r,r",
                                  [offs, lane], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, v)


@triton.jit
def leak_atomic(x_ptr, hist_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.atomic_add(hist_ptr + (x & 15), 1)  # histogram: the address is the secret


@triton.jit
def clean_select(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n  # public mask
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.where(x > 0, x * 3.0, -x)  # select on a secret
    tl.store(y_ptr + offs, y, mask=m)


@triton.jit
def clean_softmax(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=m, other=float("-inf"))
    e = tl.math.exp2(x - tl.max(x))
    tl.store(y_ptr + row * n + offs, e / tl.sum(e), mask=m)  # div.full: no slow path


@triton.jit
def clean_matmul(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK, BLOCK], tl.float32)
    for k0 in range(0, K, BLOCK):  # public trip count
        a = tl.load(a_ptr + r[:, None] * K + k0 + r[None, :])
        b = tl.load(b_ptr + (k0 + r[:, None]) * BLOCK + r[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + r[:, None] * BLOCK + r[None, :], acc)


@triton.jit
def clean_public_control(x_ptr, y_ptr, n, flag, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if flag > 0:  # branch on a public parameter
        x = tl.sqrt(tl.abs(x)) + tl.math.rsqrt(x * x + 1.0)  # approximate sqrt: no slow path
    for i in range(pid):  # trip count from the program id
        x = x * 0.5 + 1.0
    tl.store(y_ptr + offs, x, mask=offs < n)


def _f32(n=1024):
    return torch.empty(n, dtype=torch.float32)


def _i32(n=1024):
    return torch.empty(n, dtype=torch.int32)


# name -> (kernel, args, kwargs, expected kind or None for clean)
CORPUS = {
    "leak_if": (leak_if, (_f32(), _f32(), 7), dict(BLOCK=B), "branch"),
    "leak_loop_bound": (leak_loop_bound, (_f32(), _f32(), _i32()), dict(BLOCK=B), "branch"),
    "leak_early_return": (leak_early_return, (_f32(), _f32()), dict(BLOCK=B), "branch"),
    "leak_gather": (leak_gather, (_f32(), _i32(), _f32()), dict(BLOCK=B), "address"),
    # 8 elements a thread, so the compiler predicates the stores instead of exiting early
    "leak_store_mask": (leak_store_mask, (_f32(), _f32()), dict(BLOCK=1024), "memory-predicate"),
    "leak_ieee_div": (leak_ieee_div, (_f32(), _f32()), dict(BLOCK=B), "variable-latency"),
    "leak_shuffle_lane": (leak_shuffle_lane, (_i32(), _i32()), dict(BLOCK=B), "address"),
    "leak_atomic": (leak_atomic, (_i32(), _i32()), dict(BLOCK=B), "address"),
    "clean_select": (clean_select, (_f32(), _f32(), 1000), dict(BLOCK=B), None),
    "clean_softmax": (clean_softmax, (_f32(), _f32(), 1000), dict(BLOCK=1024), None),
    "clean_matmul": (clean_matmul, (torch.empty(4096, dtype=torch.float16), torch.empty(4096, dtype=torch.float16),
                                    _f32(4096), 64), dict(BLOCK=64), None),
    "clean_public_control": (clean_public_control, (_f32(), _f32(), 1000, 3), dict(BLOCK=B), None),
}


@triton.jit
def public_lengths(x_ptr, len_ptr, y_ptr, BLOCK: tl.constexpr):
    """A trip count loaded from memory: a leak unless len_ptr's data is declared public."""
    offs = tl.arange(0, BLOCK)
    n = tl.load(len_ptr + tl.program_id(0))
    acc = tl.zeros([BLOCK], tl.float32)
    for i in range(n):
        acc += tl.load(x_ptr + i * BLOCK + offs)
    tl.store(y_ptr + offs, acc)


def run(out_dir):
    """Audit every corpus kernel in this (non-interpreter) process; returns a JSON-able dict."""
    import os

    from dhpfa.audit import audit_triton
    results = {}
    for name, (fn, args, kw, expected) in CORPUS.items():
        reports, compiled = audit_triton(fn, args, kw)
        results[name] = dict(expected=expected, kinds=reports[0].by_kind(),
                             findings=[f.as_dict() for f in reports[0].findings])
        if name == "leak_gather":
            path = os.path.join(out_dir, "leak_gather.cubin")
            with open(path, "wb") as f:
                f.write(compiled.cubin)
            results["_gather_cubin"] = path
    from . import audit_corpus_gluon
    results.update(audit_corpus_gluon.run())
    pl_args = (_f32(), _i32(), _f32())
    for label, public in (("public_lengths_undeclared", ()), ("public_lengths_declared", ("len_ptr",))):
        reports, _ = audit_triton(public_lengths, pl_args, dict(BLOCK=B), public_params=public)
        results[label] = dict(kinds=reports[0].by_kind(), findings=[f.as_dict() for f in reports[0].findings])
    return results


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(run(sys.argv[1])))
