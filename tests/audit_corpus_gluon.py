"""Gluon (Hopper) kernels for the auditor: a clean TMA + mbarrier + WGMMA kernel, and a warp-specialised
pipeline whose partition dispatch the auditor does not model yet (see docs/gluon-audit.md)."""
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                              warpgroup_mma_wait)
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor


@gluon.jit
def clean_gluon_tile_softmax(a_desc, b_desc, c_desc, num_warps: gl.constexpr):
    """One tile: TMA loads on an mbarrier, one WGMMA, a row softmax, a TMA store."""
    BM: gl.constexpr = c_desc.block_type.shape[0]
    BN: gl.constexpr = c_desc.block_type.shape[1]
    a_smem = gl.allocate_shared_memory(a_desc.dtype, a_desc.block_type.shape, a_desc.layout)
    b_smem = gl.allocate_shared_memory(b_desc.dtype, b_desc.block_type.shape, b_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(a_desc, [gl.program_id(0) * BM, 0], bar, a_smem)
    tma.async_copy_global_to_shared(b_desc, [0, 0], bar, b_smem)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[num_warps, 1],
                                                     instr_shape=[16, BN, 16])
    acc = warpgroup_mma(a_smem, b_smem, gl.zeros((BM, BN), dtype=gl.float32, layout=layout), is_async=True)
    acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
    p = gl.exp2(acc - gl.max(acc, 1)[:, None])
    p = p / gl.sum(p, 1)[:, None]
    c_smem = gl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    c_smem.store(p)
    fence_async_shared()
    tma.async_copy_shared_to_global(c_desc, [gl.program_id(0) * BM, 0], c_smem)
    tma.store_wait(pendings=0)


@gluon.jit
def _ws_loader(a_desc, b_desc, a_ring, b_ring, ready, empty, n_k, STAGES: gl.constexpr):
    BK: gl.constexpr = a_desc.block_type.shape[1]
    for i in range(n_k):
        s = i % STAGES
        mbarrier.wait(empty.index(s), ((i // STAGES) & 1) ^ 1)
        mbarrier.expect(ready.index(s), a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(a_desc, [gl.program_id(0) * a_desc.block_type.shape[0], i * BK],
                                        ready.index(s), a_ring.index(s))
        tma.async_copy_global_to_shared(b_desc, [i * BK, 0], ready.index(s), b_ring.index(s))


@gluon.jit
def _ws_consumer(c_desc, a_ring, b_ring, ready, empty, n_k, STAGES: gl.constexpr, num_warps: gl.constexpr):
    BM: gl.constexpr = c_desc.block_type.shape[0]
    BN: gl.constexpr = c_desc.block_type.shape[1]
    layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[num_warps, 1],
                                                     instr_shape=[16, BN, 16])
    acc = gl.zeros((BM, BN), dtype=gl.float32, layout=layout)
    for i in range(n_k):
        s = i % STAGES
        mbarrier.wait(ready.index(s), (i // STAGES) & 1)
        acc = warpgroup_mma(a_ring.index(s), b_ring.index(s), acc, is_async=True)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        mbarrier.arrive(empty.index(s), count=1)
    c_smem = gl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    c_smem.store(gl.exp2(acc - gl.max(acc, 1)[:, None]))
    fence_async_shared()
    tma.async_copy_shared_to_global(c_desc, [gl.program_id(0) * BM, 0], c_smem)
    tma.store_wait(pendings=0)


@gluon.jit
def ws_pipeline(a_desc, b_desc, c_desc, K, STAGES: gl.constexpr, num_warps: gl.constexpr):
    """A 1-warp TMA producer and a 4-warp WGMMA consumer on a ring of mbarriers (FA3's shape)."""
    a_ring = gl.allocate_shared_memory(a_desc.dtype, [STAGES] + a_desc.block_type.shape, a_desc.layout)
    b_ring = gl.allocate_shared_memory(b_desc.dtype, [STAGES] + b_desc.block_type.shape, b_desc.layout)
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for s in gl.static_range(STAGES):
        mbarrier.init(ready.index(s), count=1)
        mbarrier.init(empty.index(s), count=1)
    n_k = K // a_desc.block_type.shape[1]
    gl.warp_specialize([(_ws_consumer, (c_desc, a_ring, b_ring, ready, empty, n_k, STAGES, num_warps)),
                        (_ws_loader, (a_desc, b_desc, a_ring, b_ring, ready, empty, n_k, STAGES))], [1], [24])


def _descs(k):
    a = torch.empty(256, k, dtype=torch.float16)
    b = torch.empty(k, 128, dtype=torch.float16)
    c = torch.empty(256, 128, dtype=torch.float32)
    return (TensorDescriptor(a, list(a.shape), list(a.stride()), [64, 64],
                             gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)),
            TensorDescriptor(b, list(b.shape), list(b.stride()), [64, 128],
                             gl.NVMMASharedLayout.get_default_for([64, 128], gl.float16)),
            TensorDescriptor(c, list(c.shape), list(c.stride()), [64, 128],
                             gl.NVMMASharedLayout.get_default_for([64, 128], gl.float32)))


def run():
    from dhpfa.audit import audit_triton
    out = {}
    for name, fn, args, kw in (("clean_gluon_tile_softmax", clean_gluon_tile_softmax, _descs(64), dict(num_warps=4)),
                               ("gluon_warp_specialized", ws_pipeline, (*_descs(512), 512),
                                dict(STAGES=2, num_warps=4))):
        reports, _ = audit_triton(fn, args, kw)
        out[name] = dict(kinds=reports[0].by_kind(), tensor_core=reports[0].counts["tensor_core"],
                         findings=[f.as_dict() for f in reports[0].findings[:5]])
    return out
