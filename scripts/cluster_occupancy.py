"""Session 44: how many thread-block clusters of 2, 4 and 8 CTAs (and 16, session 49) of the two-CTA cluster build can be resident at once
(cuOccupancyMaxActiveClusters through ctypes), with its registers and shared memory (CLUSTER + cluster_bytes), at the
kernel's 255 registers and at 128 (maxnreg: two CTAs an SM by registers). Calls 1 and 6 read clusters of four over
about 128 CTAs as two waves; this says how many fit. The query needs only the binary's resources, so the two-part build
stands in for clusters of any size.

    PYTHONPATH=src python3 scripts/cluster_occupancy.py
"""
import ctypes

import torch

from dhpfa.kernels import sm90_fwd

cuda = ctypes.CDLL("libcuda.so.1")


class Attr(ctypes.Structure):  # CUlaunchAttribute: id, padding, a 64-byte value union
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4), ("val", ctypes.c_uint * 16)]


class Config(ctypes.Structure):  # CUlaunchConfig
    _fields_ = [("gx", ctypes.c_uint), ("gy", ctypes.c_uint), ("gz", ctypes.c_uint), ("bx", ctypes.c_uint),
                ("by", ctypes.c_uint), ("bz", ctypes.c_uint), ("smem", ctypes.c_uint), ("stream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(Attr)), ("n", ctypes.c_uint)]


def max_clusters(function, threads, smem, size):
    attr = Attr()
    attr.id = 4  # CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    attr.val[0], attr.val[1], attr.val[2] = size, 1, 1
    cfg = Config(size * 64, 1, 1, threads, 1, 1, smem, None, ctypes.pointer(attr), 1)
    n = ctypes.c_int(-1)
    rc = cuda.cuOccupancyMaxActiveClusters(ctypes.byref(n), ctypes.c_void_p(function), ctypes.byref(cfg))
    return n.value if rc == 0 else f"error {rc}"


def main():
    props = torch.cuda.get_device_properties(0)
    print(f"{props.name}: {props.multi_processor_count} SMs")
    # session 45: the D=128 build on 64-key blocks with two stages at 128 registers with the tight area offset
    # (sm90_fwd.cluster_offset(tight=True)): two an SM by shared memory too
    for bn, st, d, maxnreg, tight in ((64, 3, 64, None, False), (128, 2, 128, None, False), (64, 3, 64, 128, False),
                                      (128, 2, 64, 128, False), (64, 2, 128, 128, False), (64, 2, 128, 128, True)):
        q = torch.empty(1, 512, 8, d, device="cuda", dtype=torch.bfloat16)
        tiles = dict(block_m=64, block_n=bn, stages=st, warp_specialized=True, split_kv=2, pv_overlap=True,
                     cluster=True, cluster_tight=tight) | (dict(maxnreg=maxnreg) if maxnreg else {})
        grid, args, kwargs = sm90_fwd.launch_args(q, q, q, torch.empty_like(q), torch.empty(1, 8, 512, device="cuda"),
                                                  0.125, True, 0, **tiles)
        ck = sm90_fwd.attn_fwd_sm90_ws.warmup(*args, grid=grid, **kwargs)
        ck._init_handles()
        smem = kwargs["CLUSTER"] + sm90_fwd.cluster_bytes(64, kwargs["HEAD_DIM"])
        cuda.cuFuncSetAttribute(ctypes.c_void_p(ck.function), 8, smem)  # MAX_DYNAMIC_SHARED_SIZE_BYTES
        # (session 49) sixteen CTAs, a non-portable cluster size: NON_PORTABLE_CLUSTER_SIZE_ALLOWED (14) first
        cuda.cuFuncSetAttribute(ctypes.c_void_p(ck.function), 14, 1)
        threads = ck.metadata.num_warps * 32
        row = {size: max_clusters(ck.function, threads, smem, size) for size in (1, 2, 4, 8, 16)}
        print(f"n{bn}s{st} D={d} maxnreg={maxnreg or 'default'}{' tight' if tight else ''} ({ck.n_regs} registers, {threads} threads, {smem} bytes "
              f"of shared memory): resident clusters by size " +
              ", ".join(f"{s}: {n} ({n * s if isinstance(n, int) else '-'} CTAs)" for s, n in row.items()), flush=True)


if __name__ == "__main__":
    main()
