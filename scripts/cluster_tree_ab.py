"""Session 44 experiment: SPLIT_KV = 4 and 8 with the tile's programs as one thread-block cluster meeting in a tree in
distributed shared memory (sm90_fwd CLUSTER generalised), against the global-memory meetings of the same part counts
(and 16 parts) and the API's call, on the few-program grids and packed decode calls where the API splits in four or
more. Correctness against float64 on NaN-poisoned outputs (sm90_check.check: bf16 / fp16, causal or not, odd shapes,
fewer key blocks than parts, grouped heads packed), bitwise repeats (eager and CUDA-graph replay), then CUDA-graph
replay timing in interleaved rounds of random order (call 2: the meeting's staged O swizzled, CL_SWIZZLE, against it
off and against the two-CTA builds of HEAD before this session). --precompile N first compiles every build the run launches on N
processes (Triton's cache), so the checks do not wait for one compile after another.

    git apply docs/experiments/session44_cluster_tree.diff   # calls 1-2 (clusters of 4 and 8; CL_SWIZZLE)
    PYTHONPATH=src:scripts python3 scripts/cluster_tree_ab.py --out DIR [--rounds 11] [--precompile 14] [--call N]
        [--checks cl2,cl2n64] [--smoke]
"""
import argparse
import json
import os
import statistics
import sys

import torch


def kv(parts, cluster=False, pack=0, block_n=128, stages=2, pv_overlap=True, **extra):
    return dict(block_m=64, block_n=block_n, stages=stages, warp_specialized=True, split_kv=parts,
                pv_overlap=pv_overlap, cluster=cluster, pack=pack, **extra)


CONFIGS = {"kv2": kv(2), "cl2": kv(2, True), "cl2n64": kv(2, True, block_n=64, stages=3), "kv4": kv(4), "cl4": kv(4, True), "kv8": kv(8), "cl8": kv(8, True),
           "kv16": kv(16), "pk_kv4": kv(4, pack=8), "pk_cl4": kv(4, True, 8), "pk_kv8": kv(8, pack=8),
           "pk_cl8": kv(8, True, 8), "pk_kv16": kv(16, pack=8),
           # call 6: 128 registers at launch (two CTAs an SM), so that four parts of each of 64 tiles are one wave
           "cl4n64r": kv(4, True, block_n=64, stages=3, maxnreg=128), "cl4n64s2r": kv(4, True, block_n=64, maxnreg=128),
           "cl4r": kv(4, True, maxnreg=128), "x1": dict(block_m=64, block_n=128, stages=2, warp_specialized=True,
                                                          pv_overlap=True), "cl4n64s1r": kv(4, True, block_n=64, stages=1, maxnreg=128),
           "cl2n64r": kv(2, True, block_n=64, stages=3, maxnreg=128), "cl2n64s1r": kv(2, True, block_n=64, stages=1,
                                                                                 maxnreg=128),
           # session 45: the two-CTA clusters at two CTAs an SM for grids of 67-132 tiles; at D=128 on 64-key blocks
           # with two stages, which fit two an SM only with the tight area offset (sm90_fwd.cluster_offset)
           "cl2r": kv(2, True, maxnreg=128),
           "cl2n64s2rt": kv(2, True, block_n=64, stages=2, maxnreg=128, cluster_tight=True),
           # session 46: the global split-KV builds with deeper K/V rings (decode over long keys: the 64-program grid
           # read about 30 GB/s an SM on two stages)
           "kv8s3": kv(8, stages=3), "kv8s4": kv(8, stages=4), "kv16s3": kv(16, stages=3), "kv16s4": kv(16, stages=4),
           "kv4s4": kv(4, stages=4), "kv4s3": kv(4, stages=3), "kv32": kv(32), "kv64": kv(64),
           # session 47 call 2: the global split-KV builds at 128 registers at launch (two CTAs an SM: 74 KB of shared
           # memory at D=64 two stages, 107 KB three; D=128 on 64-key blocks 82 KB), so that a decode grid of twice
           # the SMs' programs is one wave and each SM has twice the K/V loads in flight
           "kv16r": kv(16, maxnreg=128), "kv32r": kv(32, maxnreg=128), "kv32s3r": kv(32, stages=3, maxnreg=128),
           "kv64r": kv(64, maxnreg=128), "kv16n64r": kv(16, block_n=64, maxnreg=128),
           "kv32n64r": kv(32, block_n=64, maxnreg=128), "kv8n64r": kv(8, block_n=64, maxnreg=128),
           "pk_kv16n64r": kv(16, pack=8, block_n=64, maxnreg=128), "pk_kv16r": kv(16, pack=8, maxnreg=128),
           "pk_kv32r": kv(32, pack=8, maxnreg=128),
           # session 47 call 4: 256-key blocks at D=64 (no PV overlap: with it 296 bytes of stack), so that a decode
           # part's chain takes half the steps; and the part counts the split rule does not give short decode calls
           "kv2n256": kv(2, block_n=256, pv_overlap=False), "kv4n256": kv(4, block_n=256, pv_overlap=False),
           "kv8n256": kv(8, block_n=256, pv_overlap=False), "kv16n256": kv(16, block_n=256, pv_overlap=False),
           "kv16nopv": kv(16, pv_overlap=False),
           # session 47 call 5: clusters of two under a global tree (sm90_fwd CL_TREE: cl4 / cl8 above are these now)
           "cl16": kv(16, True), "cl32": kv(32, True),
           # session 48 call 7: each four parts one cluster of four CTAs (sm90_fwd CLUSTER_N = 4: two levels in shared
           # memory, the rest in the workspace)
           # (session 52: the one-cluster splits pinned to the tree, cluster_pull=False, now that the exchange is the
           # default; session 52 call 6's "x16" read the exchange)
           "q4": kv(4, 4, cluster_pull=False), "q8": kv(8, 4), "q16": kv(16, 4),
           # session 49 call 2: each eight parts one cluster of eight CTAs (sm90_fwd CLUSTER_N = 8: three levels in
           # shared memory, the third in level 0's area; sixteen parts one global level above)
           "o8": kv(8, 8, cluster_pull=False), "o16": kv(16, 8), "o32": kv(32, 8), "o64": kv(64, 8),
           # session 49 (prepared for session 50): clusters of sixteen CTAs (a non-portable size: four levels in shared
           # memory, levels 2 and 3 in the areas of levels 0 and 1)
           # (session 53: x32 / x64 pinned to the tree, now that their clusters may exchange: x32p / x64p)
           "x16": kv(16, 16, cluster_pull=False), "x32": kv(32, 16, cluster_pull=False),
           "x64": kv(64, 16, cluster_pull=False),
           # session 51: the one-cluster meetings in one exchange (sm90_fwd CL_PULL), against the trees of levels
           "x16p": kv(16, 16, cluster_pull=True), "o8p": kv(8, 8, cluster_pull=True),
           "q4p": kv(4, 4, cluster_pull=True),
           # session 53: two / four clusters of sixteen a tile, each exchanging, their column slices meeting in the
           # workspace rank by rank (sm90_fwd _clp_global)
           "x32p": kv(32, 16, cluster_pull=True), "x64p": kv(64, 16, cluster_pull=True)}
CHECKS6 = [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name)
           for name, d in (("cl4n64r", 64), ("cl4n64r@skew0", 64), ("cl4r", 64), ("cl4n64s1r", 128))
           for b, sq, sk, h, hk in ((1, 512, 512, 8, 8), (1, 512, 1024, 8, 8), (2, 333, 3000, 2, 1), (1, 100, 200, 2, 2),
                                    (1, 64, 1100, 1, 1))
           for causal in (False, True)]
# (B, S_q, S_k, H, H_kv, D, causal, dtype, config): the float64 checks
CHECKS = []
for _d in (64, 128):
    for _name in ("cl2", "cl2n64", "cl4", "cl8"):
        for _b, _sq, _sk, _h, _hk in ((1, 512, 2048, 4, 4), (1, 512, 4096, 2, 2), (2, 333, 3000, 2, 1),
                                      (1, 100, 200, 2, 2), (1, 64, 1100, 1, 1), (1, 257, 5000, 3, 1)):
            for _causal in (False, True):
                for _dt in ((torch.bfloat16, torch.float16) if _sq == 512 else (torch.bfloat16,)):
                    CHECKS.append((_b, _sq, _sk, _h, _hk, _d, _causal, _dt, _name))
    for _name in ("pk_cl4", "pk_cl8"):
        for _b, _sq, _sk, _h, _hk in ((1, 1, 8192, 32, 8), (2, 1, 3001, 32, 8), (1, 4, 4096, 16, 2), (3, 3, 700, 8, 2),
                                      (1, 1, 100, 8, 1)):
            for _causal in (False, True):
                CHECKS.append((_b, _sq, _sk, _h, _hk, _d, _causal, torch.bfloat16, _name))
# session 45 call 1: the two-CTA cluster builds at 128 registers (two CTAs an SM) on grids of 67-132 tiles
CHECKS16 = [(b, sq, sk, h, hk, d, causal, dt, name)
            for name, d in (("cl2r", 64), ("cl2n64r", 64), ("cl2r", 32), ("cl2n64s1r", 128))
            for b, sq, sk, h, hk in ((1, 512, 1024, 16, 16), (2, 333, 3000, 6, 2), (1, 100, 200, 2, 2), (1, 64, 1100, 1, 1))
            for causal in (False, True)
            for dt in ((torch.bfloat16, torch.float16) if sq == 512 else (torch.bfloat16,))]
# session 45's prepared call 12 (not run: no device time left): D=128 (and 96) on cl2n64s2rt
CHECKS19 = [(b, sq, sk, h, hk, d, causal, dt, "cl2n64s2rt")
            for d in (96, 128)
            for b, sq, sk, h, hk in ((1, 512, 1024, 16, 16), (2, 333, 3000, 6, 2), (1, 100, 200, 2, 2), (1, 64, 1100, 1, 1))
            for causal in (False, True)
            for dt in ((torch.bfloat16, torch.float16) if sq == 512 else (torch.bfloat16,))]
# session 46 call 2: the deeper rings (D=64: 4 stages, D=128: 3)
CHECKS20 = [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name)
            for name, d in (("kv8s4", 64), ("kv16s4", 64), ("kv4s4", 64), ("kv8s3", 128), ("kv16s3", 128), ("kv4s3", 128))
            for b, sq, sk, h, hk in ((1, 4, 8192, 8, 8), (2, 1, 3001, 8, 2), (1, 64, 1100, 1, 1), (1, 100, 5000, 2, 2))
            for causal in (False, True)]
# session 46's prepared call 21 (not run: device time spent): the one-level meeting of a split-KV tile's programs
# (module _ab_flat: docs/experiments/session46_flat_meeting.diff applied to a copy of sm90_fwd, FLAT_MEETING) on packed
# decode-like tiles (4 valid rows), few-tile prefill (64 valid rows: the one merging CTA reads every part's state) and
# packed grouped-query tiles
CHECKS21 = [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name)
            for name, d in (("kv4@flat", 64), ("kv8@flat", 64), ("kv16@flat", 64), ("kv64@flat", 64), ("kv8@flat", 128),
                            ("kv16@flat", 128), ("kv16@flat", 32))
            for b, sq, sk, h, hk in ((1, 4, 8192, 8, 8), (2, 1, 3001, 8, 2), (1, 64, 1100, 1, 1), (1, 100, 5000, 2, 2),
                                     (1, 5, 40000, 16, 2))
            for causal in (False, True)] + \
           [(b, sq, sk, h, hk, d, causal, torch.bfloat16, "pk_kv8@flat") for d in (64, 128)
            for b, sq, sk, h, hk in ((1, 1, 8192, 32, 8), (2, 1, 3001, 32, 8), (1, 4, 4096, 16, 2), (3, 3, 700, 8, 2))
            for causal in (False, True)]
# session 47 call 2: the split-KV builds at two CTAs an SM (kv*r), unpacked and packed
CHECKS22 = [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name)
            for name, d in (("kv32r", 64), ("kv32s3r", 64), ("kv16r", 64), ("kv32r", 32), ("kv32n64r", 128),
                            ("kv16n64r", 128))
            for b, sq, sk, h, hk in ((1, 4, 8192, 8, 8), (2, 1, 3001, 8, 2), (1, 64, 1100, 1, 1), (1, 100, 5000, 2, 2))
            for causal in (False, True)] + \
           [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name) for name, d in (("pk_kv16r", 64), ("pk_kv32r", 64),
                                                                                 ("pk_kv16n64r", 128))
            for b, sq, sk, h, hk in ((1, 1, 8192, 32, 8), (2, 1, 3001, 32, 8), (1, 4, 4096, 16, 2), (3, 3, 700, 8, 2))
            for causal in (False, True)]
# session 47 call 5: CL_TREE (each pair of parts one cluster meeting in shared memory, the levels above in the workspace)
CHECKS24 = [c for c in CHECKS if c[8] in ("cl4", "cl8")] + \
           [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name) for name in ("cl16", "cl32") for d in (64, 128)
            for b, sq, sk, h, hk in ((1, 4, 8192, 8, 8), (2, 1, 3001, 8, 2), (1, 64, 1100, 1, 1), (1, 100, 5000, 2, 2))
            for causal in (False, True)]
# session 47 call 5: CL_TREE (each pair of parts one cluster meeting in shared memory, the levels above in the workspace)
CHECKS24 = [c for c in CHECKS if c[8] in ("cl4", "cl8")] + \
           [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name) for name in ("cl16", "cl32") for d in (64, 128)
            for b, sq, sk, h, hk in ((1, 4, 8192, 8, 8), (2, 1, 3001, 8, 2), (1, 64, 1100, 1, 1), (1, 100, 5000, 2, 2))
            for causal in (False, True)]
# session 48 call 1: the cluster meeting copies only the tile's rows below S_q, and tiles of at most 32 such rows split
# their pairs evenly (sm90_fwd._cluster_copy_bytes, CLUSTER_EVEN_ROWS): tiles of 1-64 rows, a second tile of 36 / 33
CHECKS25 = [(b, sq, sk, h, hk, d, causal, dt, name)
            for name in ("cl2", "cl4", "cl8", "cl16") for d in (64, 128)
            for b, sq, sk, h, hk in ((1, 1, 3001, 8, 2), (1, 4, 8192, 8, 8), (2, 31, 1100, 2, 1), (1, 32, 4096, 2, 2),
                                     (1, 33, 700, 2, 1), (1, 100, 5000, 2, 2), (1, 161, 2100, 1, 1), (3, 5, 100, 4, 4))
            for causal in (False, True)
            for dt in ((torch.bfloat16, torch.float16) if sq == 4 else (torch.bfloat16,))] + \
           [(1, sq, 4096, 4, 4, d, False, torch.bfloat16, name) for name in ("cl2", "cl8") for d in (32, 96)
            for sq in (4, 64)]
# session 48 call 7: clusters of four (q4 / q8 / q16): few and full rows, fewer key blocks than parts, odd lengths
CHECKS27 = [(b, sq, sk, h, hk, d, causal, dt, name)
            for name in ("q4", "q8", "q16") for d in (64, 128)
            for b, sq, sk, h, hk in ((1, 1, 3001, 8, 2), (1, 4, 8192, 8, 8), (2, 31, 1100, 2, 1), (1, 32, 4096, 2, 2),
                                     (1, 33, 700, 2, 1), (1, 100, 5000, 2, 2), (1, 64, 2100, 1, 1), (3, 5, 100, 4, 4))
            for causal in (False, True)
            for dt in ((torch.bfloat16, torch.float16) if sq == 4 else (torch.bfloat16,))] + \
           [(1, sq, 4096, 4, 4, 96, False, torch.bfloat16, name) for name in ("q4", "q8") for sq in (4, 64)]
# session 49 call 2: clusters of eight (o8 / o16) as session 48's quads were checked, and the quads (their SASS changed
# with the generalised meeting) on a subset
CHECKS30 = [(b, sq, sk, h, hk, d, causal, dt, name)
            for name in ("o8", "o16") for d in (64, 128)
            for b, sq, sk, h, hk in ((1, 1, 3001, 8, 2), (1, 4, 8192, 8, 8), (2, 31, 1100, 2, 1), (1, 32, 4096, 2, 2),
                                     (1, 33, 700, 2, 1), (1, 100, 5000, 2, 2), (1, 64, 2100, 1, 1), (3, 5, 100, 4, 4),
                                     (1, 7, 20000, 1, 1))
            for causal in (False, True)
            for dt in ((torch.bfloat16, torch.float16) if sq == 4 else (torch.bfloat16,))] + \
           [(1, sq, 4096, 4, 4, 96, False, torch.bfloat16, name) for name in ("o8", "o16") for sq in (4, 64)] + \
           [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name)
            for name in ("q4", "q8", "q16") for d in (64, 128)
            for b, sq, sk, h, hk in ((1, 1, 3001, 8, 2), (2, 31, 1100, 2, 1), (1, 100, 5000, 2, 2), (3, 5, 100, 4, 4))
            for causal in (False, True)]
# session 47 call 4: 256-key blocks at D=64
CHECKS23 = [(b, sq, sk, h, hk, 64, causal, dt, name)
            for name in ("kv2n256", "kv4n256", "kv8n256", "kv16n256")
            for b, sq, sk, h, hk in ((1, 4, 8192, 8, 8), (2, 1, 3001, 8, 2), (1, 64, 1100, 1, 1), (1, 100, 5000, 2, 2))
            for causal in (False, True) for dt in ((torch.bfloat16, torch.float16) if sq == 4 else (torch.bfloat16,))]
# (B, H, H_kv, S_q, S_k, D, causal, configs): graph replay timing (the API and cuDNN beside them where H = H_kv);
# "name@head": the build from the module at HEAD before this session (kernels/_ab_head.py, carried), "name@nosw": this
# tree's module with CL_SWIZZLE off (call 2). Decode calls of one query with grouped heads run as the API runs them
# (api.pack_gqa): the group's query heads as the rows of each key/value head, e.g. (1, 8, 8, 4, 8192): 32 query heads
# over 8 key/value heads.
TIMING = {1: [(1, 4, 4, 512, 2048, 64, False, ("kv4", "cl4", "kv2", "cl2")),
              (1, 4, 4, 512, 2048, 128, False, ("kv4", "cl4", "kv2", "cl2")),
              (1, 2, 2, 512, 4096, 64, False, ("kv4", "cl4", "kv8", "cl8")),
              (1, 2, 2, 512, 8192, 128, False, ("kv4", "cl4", "kv8", "cl8")),
              (1, 1, 1, 512, 16384, 128, False, ("kv8", "cl8", "kv16", "cl4")),
              (1, 4, 4, 512, 4096, 128, False, ("kv4", "cl4", "kv2", "cl2")),
              (1, 2, 2, 2048, 2048, 64, True, ("kv4", "cl4", "kv2", "cl2")),
              (1, 32, 8, 1, 4096, 128, False, ("pk_kv8", "pk_cl8", "pk_kv4", "pk_cl4")),
              (1, 32, 8, 1, 8192, 128, False, ("pk_kv16", "pk_kv8", "pk_cl8", "pk_cl4")),
              (1, 32, 8, 1, 16384, 128, False, ("pk_kv16", "pk_kv8", "pk_cl8")),
              (1, 32, 8, 1, 8192, 64, False, ("pk_kv16", "pk_kv8", "pk_cl8")),
              (4, 32, 8, 1, 8192, 128, False, ("pk_kv4", "pk_cl4", "pk_kv8", "pk_cl8")),
              (1, 64, 8, 1, 32768, 128, False, ("pk_kv16", "pk_kv8", "pk_cl8")),
              (1, 32, 8, 4, 8192, 128, True, ("pk_kv16", "pk_kv8", "pk_cl8"))],
          2: [(1, 8, 8, 512, 512, 64, False, ("cl2n64@head", "cl2n64@nosw", "cl2n64")),
              (1, 8, 8, 512, 512, 128, False, ("cl2n64@head", "cl2n64@nosw", "cl2n64")),
              (1, 8, 8, 512, 512, 64, True, ("cl2n64@head", "cl2n64@nosw", "cl2n64")),
              (1, 8, 8, 512, 1024, 64, False, ("cl2@head", "cl2@nosw", "cl2")),
              (1, 8, 8, 512, 2048, 128, False, ("cl2@head", "cl2@nosw", "cl2")),
              (1, 2, 2, 512, 4096, 64, False, ("kv4", "cl4@nosw", "cl4", "kv8")),
              (1, 1, 1, 512, 16384, 128, False, ("kv8", "cl8@nosw", "cl8", "kv16")),
              (1, 8, 8, 4, 8192, 128, False, ("kv8", "cl8@nosw", "cl8", "kv16", "cl4")),
              (1, 8, 8, 4, 16384, 128, False, ("kv8", "cl8", "kv16")),
              (1, 8, 8, 8, 32768, 128, False, ("kv16", "kv8", "cl8")),
              (1, 8, 8, 4, 8192, 64, False, ("kv8", "cl8", "kv16")),
              (4, 8, 8, 4, 8192, 128, False, ("kv4", "cl4", "kv2", "cl2"))],
          # call 3: the tree as shipped (the swizzle alone on the two-CTA builds; the clusters of 4 and 8 are
          # docs/experiments/session44_cluster_tree.diff) against HEAD's two-CTA builds, where the API runs them
          3: [(1, 8, 8, 512, 512, 64, False, ("cl2n64@head", "cl2n64")),
              (1, 8, 8, 512, 512, 128, False, ("cl2n64@head", "cl2n64")),
              (1, 8, 8, 512, 512, 64, True, ("cl2n64@head", "cl2n64")),
              (1, 8, 8, 512, 512, 128, True, ("cl2n64@head", "cl2n64")),
              (2, 8, 8, 256, 512, 64, False, ("cl2n64@head", "cl2n64")),
              (1, 8, 8, 512, 768, 64, False, ("cl2@head", "cl2")),
              (1, 8, 8, 512, 1024, 64, False, ("cl2@head", "cl2")),
              (1, 8, 8, 512, 1024, 128, False, ("cl2@head", "cl2")),
              (1, 4, 4, 1024, 1024, 64, True, ("cl2n64@head", "cl2n64")),
              (1, 8, 8, 512, 2048, 64, False, ("cl2@head", "cl2"))],
          # call 4: the two-CTA cluster's split of the key blocks: (n - 1) // 2 for part 1 (shipped), n // 2, n // 3
          4: [(1, 8, 8, 512, 512, 64, False, ("cl2n64", "cl2n64@even", "cl2n64@more")),
              (1, 8, 8, 512, 512, 128, False, ("cl2n64", "cl2n64@even", "cl2n64@more")),
              (1, 8, 8, 512, 512, 64, True, ("cl2n64", "cl2n64@even", "cl2n64@more")),
              (1, 8, 8, 512, 768, 64, False, ("cl2", "cl2@even", "cl2@more")),
              (1, 8, 8, 512, 1024, 64, False, ("cl2", "cl2@even", "cl2@more")),
              (1, 8, 8, 512, 1024, 128, False, ("cl2", "cl2@even", "cl2@more")),
              (1, 8, 8, 512, 2048, 64, False, ("cl2", "cl2@even", "cl2@more")),
              (1, 8, 8, 512, 2048, 128, False, ("cl2", "cl2@even", "cl2@more")),
              (1, 4, 4, 1024, 1024, 64, True, ("cl2n64", "cl2n64@even", "cl2n64@more"))],
          # call 5: part 0's acknowledgement a relaxed arrive (no MEMBAR.ALL.GPU before it) and the meeting's waits at
          # CTA scope (no CCTL.IVALL after them), against the swizzled build of e145548 (kernels/_ab_sw.py, carried)
          5: [(1, 8, 8, 512, 512, 64, False, ("cl2n64@sw", "cl2n64")),
              (1, 8, 8, 512, 512, 128, False, ("cl2n64@sw", "cl2n64")),
              (1, 8, 8, 512, 512, 64, True, ("cl2n64@sw", "cl2n64")),
              (1, 8, 8, 512, 512, 128, True, ("cl2n64@sw", "cl2n64")),
              (1, 8, 8, 512, 768, 64, False, ("cl2@sw", "cl2")),
              (1, 8, 8, 512, 1024, 128, False, ("cl2@sw", "cl2")),
              (1, 8, 8, 512, 2048, 64, False, ("cl2@sw", "cl2"))],
          # call 6 (docs/experiments/session44_cluster_tree.diff applied: CL_SKEW): four parts at two CTAs an SM
          6: [(1, 8, 8, 512, 512, 64, False, ("cl2n64", "cl4n64r", "cl4n64r@skew0", "cl4n64s2r", "cl2n64r")),
              (1, 8, 8, 512, 512, 64, True, ("cl2n64", "cl4n64r", "cl4n64r@skew0")),
              (1, 8, 8, 512, 512, 128, False, ("cl2n64", "cl4n64s1r", "cl4n64s1r@skew0", "cl2n64s1r")),
              (1, 8, 8, 512, 768, 64, False, ("cl2", "cl4n64r", "cl4n64r@skew0", "cl4r")),
              (1, 8, 8, 512, 1024, 64, False, ("cl2", "cl4n64r", "cl4r", "cl4r@skew0")),
              (2, 8, 8, 256, 512, 64, False, ("cl2n64", "cl4n64r", "cl4n64r@skew0"))],
          # call 7 (the shipped meeting): the cluster builds below FEW_PROGRAMS_CLUSTER_SEQ keys, against the API's
          # choice there (the pointer-load 64x64 tiles at D=64, the one-consumer 64x64 Gluon tiles at D=128)
          7: [(1, 8, 8, 512, 256, 64, False, ("cl2n64", "x1")),
              (1, 8, 8, 512, 384, 64, False, ("cl2n64", "x1")),
              (1, 8, 8, 512, 256, 128, False, ("cl2n64", "x1")),
              (1, 8, 8, 512, 384, 128, False, ("cl2n64", "x1")),
              (1, 8, 8, 256, 256, 64, True, ("cl2n64",)),
              (1, 8, 8, 384, 384, 64, True, ("cl2n64",)),
              (1, 8, 8, 512, 512, 64, False, ("cl2n64", "x1"))],
          # call 13: the bulk copy in four (EDITS chunk4)
          13: [(1, 8, 8, 512, 512, 64, False, ("cl2n64", "cl2n64@chunk4")),
               (1, 8, 8, 512, 512, 128, False, ("cl2n64", "cl2n64@chunk4")),
               (1, 8, 8, 512, 512, 64, True, ("cl2n64", "cl2n64@chunk4")),
               (1, 8, 8, 512, 1024, 64, False, ("cl2", "cl2@chunk4")),
               (1, 8, 8, 512, 1024, 128, False, ("cl2", "cl2@chunk4")),
               (1, 8, 8, 512, 2048, 64, False, ("cl2", "cl2@chunk4"))],
          # call 14: the even split at D <= 64 on 128-key blocks (sm90_fwd.cluster_even) against the build before it
          # (kernels/_ab_prev.py, carried: 5374d0d)
          14: [(1, 8, 8, 512, 768, 64, False, ("cl2", "cl2@prev")),
               (1, 8, 8, 512, 1024, 64, False, ("cl2", "cl2@prev")),
               (1, 8, 8, 512, 2048, 64, False, ("cl2", "cl2@prev")),
               (1, 8, 8, 512, 4096, 64, False, ("cl2", "cl2@prev")),
               (1, 2, 2, 2048, 2048, 64, True, ("cl2", "cl2@prev")),
               (1, 4, 4, 1024, 4096, 64, True, ("cl2", "cl2@prev")),
               (1, 8, 8, 512, 1024, 32, False, ("cl2", "cl2@prev")),
               (1, 8, 8, 512, 1024, 128, False, ("cl2", "cl2@prev"))],
          # session 45 call 1: grids of 67-132 tiles (one program a tile, or SPLIT_K's two consumers, in the API) on
          # the two-CTA clusters at two CTAs an SM; the 64-tile control; the cluster rule's threshold at D=128
          16: [(1, 16, 16, 512, 512, 64, False, ("cl2n64r",)),
               (1, 16, 16, 512, 768, 64, False, ("cl2r", "cl2n64r")),
               (1, 16, 16, 512, 1024, 64, False, ("cl2r", "cl2n64r")),
               (1, 16, 16, 512, 2048, 64, False, ("cl2r",)),
               (1, 16, 16, 512, 4096, 64, False, ("cl2r",)),
               (2, 12, 12, 512, 512, 64, False, ("cl2n64r",)),
               (2, 12, 12, 512, 2048, 64, False, ("cl2r",)),
               (1, 8, 8, 1024, 1024, 64, True, ("cl2n64r", "cl2r")),
               (1, 16, 16, 512, 512, 64, True, ("cl2n64r",)),
               (1, 4, 4, 2048, 2048, 64, True, ("cl2n64r", "cl2r")),
               (1, 16, 16, 512, 2048, 32, False, ("cl2r",)),
               (1, 16, 16, 512, 512, 128, False, ("cl2n64s1r",)),
               (1, 16, 16, 512, 1024, 128, False, ("cl2n64s1r",)),
               (1, 8, 8, 512, 512, 64, False, ("cl2n64", "cl2n64r")),
               (1, 8, 8, 512, 384, 128, False, ("cl2n64", "x1")),
               (1, 8, 8, 512, 256, 128, False, ("cl2n64", "x1"))],
          # session 45 call 2: the API with the two-CTA-an-SM cluster rule (variants.SM90_FEW_PROGRAMS_CLUSTER_2X)
          # against its rule before (api_prev), over grids of 67-132 tiles and key lengths to 16K; the boundaries
          17: [(1, 16, 16, 512, 1024, 64, False, ("api_prev",)),
               (1, 16, 16, 512, 4096, 64, False, ("api_prev",)),
               (1, 16, 16, 512, 16384, 64, False, ("api_prev",)),
               (1, 9, 9, 512, 2048, 64, False, ("api_prev",)),
               (1, 12, 12, 512, 2048, 64, False, ("api_prev",)),
               (2, 8, 8, 512, 8192, 64, False, ("api_prev",)),
               (1, 132, 132, 64, 4096, 64, False, ("api_prev",)),
               (4, 32, 8, 64, 2048, 64, False, ("api_prev",)),
               (1, 8, 8, 1024, 1024, 64, True, ("api_prev",)),
               (1, 12, 12, 1024, 1024, 64, True, ("api_prev",)),
               (1, 4, 4, 2048, 2048, 64, True, ("api_prev",)),
               (1, 2, 2, 4096, 4096, 64, True, ("api_prev",)),
               (1, 16, 16, 512, 1024, 32, False, ("api_prev",)),
               (1, 16, 16, 512, 8192, 32, False, ("api_prev",)),
               (1, 8, 8, 1024, 2048, 32, True, ("api_prev",)),
               (1, 128, 128, 1, 16384, 64, False, ("api_prev",))],
          # session 45 call 4: the two-an-SM builds below FEW_PROGRAMS_CLUSTER_2X_SEQ at D=32 (where the API runs the
          # Triton short tiles); D=96 (the D=128 kernel, padded) at 384 / 448 keys on the one-CTA cluster build
          18: [(1, 16, 16, 512, 512, 32, False, ("cl2n64r", "cl2r")),
               (1, 16, 16, 512, 768, 32, False, ("cl2n64r", "cl2r")),
               (1, 16, 16, 512, 512, 32, True, ("cl2n64r", "cl2r")),
               (1, 8, 8, 512, 384, 96, False, ("cl2n64",)),
               (1, 8, 8, 512, 448, 96, False, ("cl2n64",)),
               (1, 8, 8, 512, 384, 128, True, ("cl2n64",)),
               (1, 8, 8, 384, 384, 128, True, ("cl2n64",))],
          # session 45's prepared call 12 (for the next session): D=128 grids of 67-132 tiles (the API: split keys in one
          # program, SPLIT_K) on the two-an-SM cluster with two stages of 64-key blocks (cl2n64s2rt) and with one
          # (cl2n64s1r, call 1: x0.76-0.78)
          19: [(1, 16, 16, 512, 1024, 128, False, ("cl2n64s2rt", "cl2n64s1r")),
               (1, 16, 16, 512, 4096, 128, False, ("cl2n64s2rt",)),
               (1, 16, 16, 512, 16384, 128, False, ("cl2n64s2rt",)),
               (1, 16, 16, 512, 512, 128, False, ("cl2n64s2rt",)),
               (2, 8, 8, 512, 8192, 128, False, ("cl2n64s2rt",)),
               (1, 8, 8, 1024, 1024, 128, True, ("cl2n64s2rt",)),
               (1, 4, 4, 2048, 2048, 128, True, ("cl2n64s2rt",)),
               (1, 16, 16, 512, 2048, 96, False, ("cl2n64s2rt",))],
          # session 46 call 2: packed decode over long keys (the API packs (1, 32, 8, 1, S_k)'s query heads as 4 rows of
          # each of 8 key/value heads: these (1, 8, 8, 4, S_k) calls), the API's part counts (half the SMs) on deeper
          # K/V rings, and twice the parts (all SMs)
          20: [(1, 8, 8, 4, 32768, 64, False, ("kv8s4", "kv16", "kv16s4")),
               (1, 8, 8, 4, 32768, 128, False, ("kv8s3", "kv16", "kv16s3")),
               (1, 8, 8, 4, 8192, 64, False, ("kv8s4", "kv16", "kv16s4")),
               (1, 8, 8, 4, 16384, 128, False, ("kv8s3", "kv16", "kv16s3")),
               (1, 8, 8, 4, 131072, 64, False, ("kv8s4", "kv16s4")),
               (1, 8, 8, 4, 4096, 64, False, ("kv8s4", "kv16s4")),
               (1, 4, 4, 4, 32768, 128, False, ("kv16s3",)),
               (1, 2, 2, 512, 16384, 64, False, ("kv4s4",)),
               (1, 2, 2, 512, 16384, 128, False, ("kv4s3",))],
          # session 46's prepared call 21: the API's tree against the one-level meeting (@flat) at the same part counts
          21: [(1, 8, 8, 4, 4096, 64, False, ("kv8@flat", "kv16@flat")),
               (1, 8, 8, 4, 8192, 64, False, ("kv16", "kv16@flat")),
               (1, 8, 8, 4, 32768, 64, False, ("kv16", "kv16@flat")),
               (1, 8, 8, 4, 32768, 128, False, ("kv8", "kv8@flat", "kv16@flat")),
               (1, 8, 8, 4, 16384, 128, False, ("kv8", "kv8@flat")),
               (1, 4, 4, 4, 32768, 128, False, ("kv16", "kv16@flat")),
               (1, 1, 1, 4, 131072, 64, False, ("kv64", "kv64@flat")),
               (1, 2, 2, 512, 16384, 64, False, ("kv8", "kv8@flat")),
               (1, 32, 8, 5, 8192, 128, False, ("pk_kv8", "pk_kv8@flat"))],
          # session 47 call 2: two CTAs an SM (the API's decode builds run one)
          22: [(1, 8, 8, 4, 32768, 64, False, ("kv16r", "kv32", "kv32r", "kv32s3r")),
               (1, 8, 8, 4, 8192, 64, False, ("kv16r", "kv32r")),
               (1, 8, 8, 4, 131072, 64, False, ("kv32r", "kv32s3r", "kv64r")),
               (2, 8, 8, 4, 16384, 64, False, ("kv16r", "kv32r")),
               (1, 4, 4, 4, 32768, 64, False, ("kv32r", "kv64r")),
               (1, 8, 8, 4, 32768, 32, False, ("kv32r", "kv32s3r")),
               (1, 8, 8, 4, 32768, 128, False, ("kv16n64r", "kv32n64r")),
               (1, 8, 8, 4, 16384, 128, False, ("kv8n64r", "kv16n64r", "kv32n64r")),
               (1, 32, 8, 4, 8192, 64, False, ("pk_kv16", "pk_kv16r", "pk_kv32r")),
               (1, 32, 8, 5, 8192, 128, False, ("pk_kv8", "pk_kv16", "pk_kv16n64r"))],
          # session 47 call 4: decode of 1-4 sequences (the calls pack_gqa runs: 4 rows of 8 key/value heads; MQA: 32 rows
          # of one) at other part counts than the rule's, and 256-key blocks at D=64
          23: [(1, 8, 8, 4, 1024, 64, False, ("kv2", "cl2", "kv4", "kv8", "kv2n256", "kv4n256")),
               (1, 8, 8, 4, 1024, 128, False, ("cl2", "kv4", "kv8")),
               (1, 8, 8, 4, 4096, 64, False, ("kv8", "kv16", "kv8n256", "kv16n256")),
               (1, 8, 8, 4, 4096, 128, False, ("kv8", "kv16", "kv4")),
               (1, 8, 8, 4, 32768, 64, False, ("kv16", "kv16nopv", "kv16n256", "kv8n256")),
               (4, 1, 1, 32, 8192, 64, False, ("kv16", "kv8", "kv32", "kv16n256", "kv8n256")),
               (4, 1, 1, 32, 8192, 128, False, ("kv16", "kv8", "kv32")),
               (1, 8, 8, 4, 16384, 64, False, ("kv16", "kv16n256"))],
          # session 47 call 5: CL_TREE against the global trees at the same part counts
          24: [(1, 8, 8, 4, 1024, 64, False, ("cl4", "cl8")),
               (1, 8, 8, 4, 1024, 128, False, ("kv4", "cl4")),
               (1, 8, 8, 4, 4096, 64, False, ("cl8", "kv16", "cl16", "cl4")),
               (1, 8, 8, 4, 4096, 128, False, ("cl8", "cl4")),
               (1, 8, 8, 4, 16384, 64, False, ("cl16",)),
               (1, 8, 8, 4, 32768, 64, False, ("cl16",)),
               (1, 8, 8, 4, 131072, 64, False, ("cl16",)),
               (1, 8, 8, 4, 16384, 128, False, ("cl8", "cl16")),
               (1, 8, 8, 4, 32768, 128, False, ("cl8", "kv16", "cl16")),
               (2, 8, 8, 4, 16384, 128, False, ("kv4", "cl4", "cl8")),
               (4, 1, 1, 32, 8192, 64, False, ("cl16", "cl8")),
               (4, 1, 1, 32, 8192, 128, False, ("cl16", "cl8")),
               (1, 1, 1, 32, 32768, 64, False, ("kv64", "cl32", "kv32")),
               (1, 2, 2, 512, 16384, 64, False, ("kv8", "cl8")),
               (1, 4, 4, 512, 2048, 64, False, ("kv4", "cl4"))],
          # session 48 call 1: the meeting's copy of the tile's rows only, the even split of tiles of <= 32 rows, against
          # the module before (kernels/_ab_prev.py, carried: 47205c3); decode as the API packs it, full-row controls
          25: [(1, 8, 8, 4, 4096, 128, False, ("cl8", "cl8@prev")),
               (1, 8, 8, 4, 16384, 128, False, ("cl8", "cl8@prev")),
               (1, 8, 8, 4, 32768, 128, False, ("cl8", "cl8@prev")),
               (4, 1, 1, 32, 8192, 128, False, ("cl16", "cl16@prev")),
               (1, 8, 8, 4, 4096, 64, False, ("cl16", "cl16@prev")),
               (1, 8, 8, 4, 32768, 64, False, ("cl16", "cl16@prev")),
               (4, 1, 1, 32, 8192, 64, False, ("cl16", "cl16@prev")),
               (1, 8, 8, 4, 1024, 128, False, ("cl4", "cl4@prev")),
               (1, 8, 8, 4, 1024, 64, False, ("cl2", "cl2@prev", "cl4", "cl4@prev")),
               (1, 4, 4, 7, 16384, 96, False, ("cl16", "cl16@prev")),
               (2, 8, 8, 4, 16384, 128, False, ("cl4", "cl4@prev")),
               (2, 1, 1, 48, 8192, 128, False, ("cl16", "cl16@prev")),
               (1, 4, 4, 512, 2048, 64, False, ("cl4", "cl4@prev")),
               (1, 2, 2, 1024, 4096, 128, False, ("cl8", "cl8@prev")),
               (1, 8, 8, 512, 1024, 128, False, ("cl2", "cl2@prev"))],
          # session 48 call 2: part counts for tiles of few rows (decode as the API packs it, MQA, one-query MHA) with
          # call 1's meeting: the cluster builds of 2-16 parts over 768-8,192 keys, against the API's rule
          26: [(b, h, h, sq, sk, d, False, names)
               for d in (64, 128)
               for b, h, sq, sks, names in (
                   (1, 8, 4, (768, 1024, 1536, 2048, 3072, 4096, 6144, 8192), ("cl2", "cl4", "cl8", "cl16")),
                   (4, 1, 32, (1024, 2048, 4096, 8192), ("cl2", "cl4", "cl8", "cl16")),
                   (2, 8, 4, (1024, 2048, 4096, 8192), ("cl2", "cl4", "cl8")),
                   (1, 32, 1, (1024, 2048, 4096), ("cl2", "cl4")))
               for sk in sks],
          # session 48 call 7: clusters of four against the pairs' cluster trees at the same part counts
          27: [(1, 8, 8, 4, 1024, 64, False, ("cl4", "q4")),
               (1, 8, 8, 4, 2048, 64, False, ("cl4", "q4", "q8")),
               (1, 8, 8, 4, 4096, 64, False, ("cl16", "q8", "q16")),
               (4, 1, 1, 32, 4096, 64, False, ("cl16", "q16")),
               (1, 8, 8, 4, 1024, 128, False, ("cl4", "q4")),
               (1, 8, 8, 4, 2048, 128, False, ("cl4", "q4", "q8")),
               (1, 8, 8, 4, 4096, 128, False, ("cl8", "q8")),
               (1, 8, 8, 4, 16384, 128, False, ("cl8", "q8")),
               (1, 8, 8, 4, 32768, 128, False, ("cl8", "q8")),
               (4, 1, 1, 32, 8192, 128, False, ("cl16", "q16")),
               (4, 1, 1, 32, 2048, 128, False, ("cl4", "q4", "q8")),
               (1, 4, 4, 7, 4096, 96, False, ("cl8", "q8")),
               (2, 8, 8, 4, 4096, 128, False, ("cl4", "q4")),
               (1, 4, 4, 512, 2048, 64, False, ("cl4", "q4")),
               (1, 2, 2, 1024, 4096, 128, False, ("cl8", "q8"))],
          # session 48 call 8: the part counts of the clusters of four on calls of few rows, beside the pairs' trees
          28: [(b, h, h, sq, sk, d, False, names)
               for b, h, sq, d, sks, names in (
                   (1, 8, 4, 64, (1024, 1536, 2048, 3072, 4096, 6144, 8192, 16384, 32768), ("q4", "q8", "cl16")),
                   (1, 8, 4, 128, (768, 1024, 1536, 2048, 3072, 4096, 8192, 32768), ("q4", "q8", "cl8")),
                   (4, 1, 32, 64, (1024, 2048, 4096, 8192, 16384), ("q4", "q8", "q16", "cl16")),
                   (4, 1, 32, 128, (1024, 2048, 4096, 8192, 16384), ("q4", "q8", "q16", "cl16")),
                   (2, 8, 4, 64, (1024, 2048, 4096, 8192), ("q4", "cl4")),
                   (2, 8, 4, 128, (1024, 2048, 4096, 8192), ("q4", "cl4")),
                   (1, 4, 7, 96, (1024, 4096, 16384), ("q4", "q8", "cl8")),
                   (1, 16, 1, 128, (1024, 4096), ("q4", "cl4")),
                   (1, 2, 16, 128, (8192, 32768), ("q8", "q16", "cl16")))
               for sk in sks],
          # session 48 call 11: issue 5's small shape and its neighbours on the two-CTA cluster builds (full rows: only
          # the meeting area's layout and the copy's byte count at run time changed) against the module before
          29: [(1, 8, 8, 512, 512, 64, False, ("cl2n64", "cl2n64@prev")),
               (1, 8, 8, 512, 512, 64, True, ("cl2n64", "cl2n64@prev")),
               (1, 8, 8, 512, 1024, 64, False, ("cl2", "cl2@prev")),
               (1, 8, 8, 512, 512, 128, False, ("cl2n64", "cl2n64@prev")),
               (2, 8, 8, 512, 512, 64, False, ("cl2n64", "cl2n64@prev"))],
          # session 49 call 2: clusters of eight against the quads at the same part counts (and 16 parts as two clusters
          # of eight under one global level); the quads against their binaries before the generalised meeting
          # (kernels/_ab_prev.py, carried: 27cb87c)
          30: [(1, 8, 8, 4, 2048, 128, False, ("q4", "q8", "o8")),
               (1, 8, 8, 4, 4096, 128, False, ("q8", "q8@prev", "o8")),
               (1, 8, 8, 4, 8192, 128, False, ("q8", "o8")),
               (1, 8, 8, 4, 32768, 128, False, ("q8", "o8")),
               (1, 8, 8, 4, 1024, 128, False, ("q4", "q4@prev", "o8")),
               (1, 8, 8, 4, 1024, 64, False, ("q4", "o8")),
               (1, 8, 8, 4, 2048, 64, False, ("q8", "o8")),
               (1, 8, 8, 4, 4096, 64, False, ("q8", "q8@prev", "o8")),
               (1, 8, 8, 4, 8192, 64, False, ("q8", "o8", "cl16")),
               (4, 1, 1, 32, 4096, 128, False, ("q8", "o8", "o16")),
               (4, 1, 1, 32, 8192, 128, False, ("q16", "q16@prev", "o8", "o16")),
               (4, 1, 1, 32, 16384, 128, False, ("q16", "o16")),
               (4, 1, 1, 32, 4096, 64, False, ("q8", "o8", "o16")),
               (4, 1, 1, 32, 8192, 64, False, ("q8", "o8", "o16")),
               (1, 4, 4, 7, 4096, 96, False, ("q8", "o8", "o16")),
               (1, 4, 4, 7, 16384, 96, False, ("q16", "o16")),
               (1, 2, 2, 16, 8192, 128, False, ("q16", "o8", "o16"))],
          # session 49 call 3: 32 / 64 parts as clusters of eight (one or two tiles, long keys), eight parts in clusters
          # of eight against sixteen as pairs where sixteen in clusters of eight do not fit (8 tiles at D=64), and 12-15
          # tiles (eight parts: 96-120 CTAs) against the quads' four
          31: [(1, 1, 1, 32, 16384, 128, False, ("kv32", "o16", "o32")),
               (1, 1, 1, 32, 32768, 128, False, ("kv64", "o32", "o64")),
               (1, 1, 1, 32, 65536, 128, False, ("kv64", "o32", "o64")),
               (1, 1, 1, 32, 32768, 64, False, ("kv64", "o32", "o64")),
               (2, 1, 1, 32, 32768, 128, False, ("kv32", "o16", "o32")),
               (1, 8, 8, 4, 16384, 64, False, ("cl16", "o8")),
               (1, 8, 8, 4, 32768, 64, False, ("cl16", "o8")),
               (1, 8, 8, 4, 131072, 64, False, ("cl16", "o8")),
               (1, 15, 15, 4, 1024, 128, False, ("q4", "o8")),
               (1, 15, 15, 4, 4096, 128, False, ("q4", "o8")),
               (1, 12, 12, 4, 2048, 64, False, ("q8", "q4", "o8")),
               (1, 15, 15, 4, 8192, 64, False, ("q8", "o8"))],
          # session 49 call 4: level 2's ready word as an mbarrier in rank 4 (rank 0's release arrival; _CL_TELL) against
          # the ready word calls 2-3 spun on (kernels/_ab_prev.py, carried: f577f3c)
          32: [(1, 8, 8, 4, 4096, 128, False, ("o8", "o8@prev")),
               (1, 8, 8, 4, 1024, 64, False, ("o8", "o8@prev")),
               (1, 8, 8, 4, 2048, 128, False, ("o8", "o8@prev")),
               (4, 1, 1, 32, 8192, 128, False, ("o16", "o16@prev")),
               (4, 1, 1, 32, 8192, 64, False, ("o16", "o16@prev")),
               (1, 1, 1, 32, 16384, 128, False, ("o32", "o32@prev")),
               (1, 1, 1, 32, 65536, 128, False, ("o64", "o64@prev"))],
          # session 49 call 5: part counts for one tile of 32 rows at D=128 (MQA of one sequence, where cuDNN read x1.3-1.4
          # ahead in call 4) and of 7 at D=96
          33: [(1, 1, 1, 32, 4096, 128, False, ("o8", "o16", "o32")),
               (1, 1, 1, 32, 8192, 128, False, ("o16", "o32", "o64")),
               (1, 1, 1, 32, 16384, 128, False, ("o32", "o64")),
               (1, 1, 1, 28, 16384, 96, False, ("o32", "o64")),
               (1, 4, 4, 8, 4096, 128, False, ("o8", "o16"))],
          # session 49 call 6: D=64 cluster builds with global levels above their clusters, merging in registers (as
          # shipped) / from the workspace (@wsm)
          34: [(1, 1, 1, 32, 32768, 64, False, ("kv64", "o64", "o64@wsm", "o32@wsm")),
               (1, 1, 1, 32, 16384, 64, False, ("kv32", "o32", "o32@wsm")),
               (4, 1, 1, 32, 8192, 64, False, ("o16", "o16@wsm")),
               (1, 8, 8, 4, 16384, 64, False, ("cl16", "cl16@wsm")),
               (1, 8, 8, 4, 4096, 64, False, ("o8", "cl8", "cl8@wsm")),
               (1, 8, 8, 4, 32768, 64, False, ("cl16", "cl16@wsm"))],
          # prepared in session 49 (not run): clusters of sixteen against eight at the same part counts, where MQA of
          # one sequence reads x0.68-0.80 of cuDNN (one or two tiles of 32 rows) and MQA of four at D=128
          35: [(1, 1, 1, 32, 16384, 128, False, ("o32", "x32", "x16")),
               (1, 1, 1, 32, 32768, 128, False, ("o64", "x64", "x32")),
               (1, 1, 1, 32, 8192, 128, False, ("o16", "x16")),
               (1, 1, 1, 32, 16384, 64, False, ("o32", "x32")),
               (1, 1, 1, 32, 32768, 64, False, ("o64", "x64")),
               (2, 1, 1, 32, 32768, 128, False, ("o32", "x32")),
               (4, 1, 1, 32, 8192, 128, False, ("o16", "x16")),
               (1, 4, 4, 7, 4096, 96, False, ("o8", "x16"))],
          # session 50 call 2: where clusters of sixteen start (part counts and keys) under session 50's rule
          # (variants.SM90_FEW_PROGRAMS_CL16_TREE, FEW_ROWS_SPLIT_KV's sixteen parts from 4,096 keys); the API is that rule
          36: [(1, 1, 1, 32, 2048, 128, False, ("o8", "x16")),
               (1, 1, 1, 32, 4096, 128, False, ("o8", "x16", "x32")),
               (1, 1, 1, 32, 8192, 128, False, ("x16", "x32")),
               (1, 1, 1, 32, 16384, 128, False, ("x32", "x64")),
               (4, 1, 1, 32, 2048, 128, False, ("o8", "x16")),
               (4, 1, 1, 32, 4096, 128, False, ("o8", "x16")),
               (7, 1, 1, 32, 4096, 128, False, ("o8", "x16")),
               (7, 1, 1, 32, 16384, 128, False, ("o16", "x16")),
               (2, 1, 1, 32, 16384, 128, False, ("o32", "x32", "x16")),
               (4, 1, 1, 32, 16384, 64, False, ("kv32", "x16")),
               (1, 1, 1, 32, 2048, 64, False, ("o8", "x16")),
               (1, 1, 1, 32, 4096, 64, False, ("o8", "x16")),
               (1, 1, 1, 32, 8192, 64, False, ("o16", "x16", "x32")),
               (7, 1, 1, 32, 8192, 64, False, ("o16", "x16"))],
          # session 50 call 7: the edge of FEW_ROWS_HALF_KEYS (1,536 keys a part, interpolated in call 3) and MQA of
          # four sequences at 2,048 keys (x0.93 of cuDNN)
          37: [(4, 1, 1, 32, 24576, 64, False, ("kv32", "x16")),
               (2, 1, 1, 32, 49152, 64, False, ("kv64", "x32")),
               (4, 1, 1, 32, 20480, 64, False, ("kv32", "x16")),
               (4, 1, 1, 32, 2048, 128, False, ("o8", "x16", "q4"))],
          # session 51: the one-exchange meeting (CL_PULL) against the tree of levels, where the API runs one cluster
          38: [(1, 1, 1, 32, 2048, 128, False, ("x16", "x16p", "o8", "o8p")),
               (1, 1, 1, 32, 4096, 128, False, ("x16", "x16p")),
               (1, 1, 1, 32, 16384, 128, False, ("x16", "x16p")),
               (1, 1, 1, 32, 4096, 64, False, ("x16", "x16p")),
               (1, 1, 1, 32, 16384, 64, False, ("x16", "x16p")),
               (4, 1, 1, 32, 8192, 128, False, ("x16", "x16p")),
               (4, 1, 1, 32, 2048, 128, False, ("o8", "o8p", "x16", "x16p", "q4", "q4p")),
               (1, 8, 8, 4, 4096, 128, False, ("x16", "x16p"))],
          # session 52: the exchange opened through the cluster barrier (CLP_CBAR, four producer warps: x16p / o8p / q4p)
          # against the tree of levels; call 1 (the first commit of this list) against session 51's ready words
          # (@words), call 3 by loads from each rank's shared memory (CLP_LOADS) against call 1's bulk copies (@copies),
          # call 6 the loads merged as they arrive (one round) against call 3's two rounds (@s52a: a8cae62's sm90_fwd,
          # carried as src/dhpfa/kernels/_ab_s52a.py)
          40: [(1, 1, 1, 32, 2048, 128, False, ("x16", "x16p", "x16p@s52a", "o8p", "o8p@s52a")),
               (1, 1, 1, 32, 8192, 128, False, ("x16", "x16p", "x16p@s52a")),
               (1, 1, 1, 32, 2048, 64, False, ("x16", "x16p", "x16p@s52a")),
               (4, 1, 1, 32, 2048, 128, False, ("x16", "x16p", "x16p@s52a", "q4p", "q4p@s52a")),
               (4, 1, 1, 32, 16384, 128, False, ("x16", "x16p", "x16p@s52a")),
               (1, 8, 8, 4, 4096, 128, False, ("x16", "x16p", "x16p@s52a"))],
          # session 52 call 8: the exchange's staged / done signals as phases 2 / 3 of the cluster barrier (@cphase:
          # docs/experiments/session52_clpull_cluster_phases.diff applied, carried as src/dhpfa/kernels/_ab_cphase.py)
          # against the mbarriers' remote release arrivals (x16p) and the tree
          41: [(1, 1, 1, 32, 2048, 128, False, ("x16", "x16p", "x16p@cphase", "o8p", "o8p@cphase")),
               (1, 1, 1, 32, 8192, 128, False, ("x16", "x16p", "x16p@cphase")),
               (1, 1, 1, 32, 2048, 64, False, ("x16", "x16p", "x16p@cphase")),
               (4, 1, 1, 32, 2048, 128, False, ("x16", "x16p", "x16p@cphase", "q4p", "q4p@cphase")),
               (4, 1, 1, 32, 16384, 128, False, ("x16", "x16p", "x16p@cphase"))],
          # session 51 call 2: where one cluster (one exchange) now wins over more parts, and over eight parts; the API
          # with CL_PULL_DEFAULT on, the rule unchanged
          # session 53: the exchange across two / four clusters (x32p / x64p) against the tree (x32 / x64)
          42: [(1, 1, 1, 32, 8192, 128, False, ("x16p", "x32", "x32p")),
               (1, 1, 1, 32, 16384, 128, False, ("x16p", "x32", "x32p", "x64p")),
               (1, 1, 1, 32, 32768, 128, False, ("x32p", "x64", "x64p")),
               (1, 1, 1, 32, 65536, 128, False, ("x64", "x64p")),
               (1, 1, 1, 32, 16384, 64, False, ("x16p", "x32", "x32p")),
               (1, 1, 1, 32, 32768, 64, False, ("x32p", "x64", "x64p")),
               (2, 1, 1, 32, 16384, 128, False, ("x16p", "x32", "x32p")),
               (1, 8, 8, 4, 16384, 128, False, ("x16p", "x32", "x32p"))],
          # session 53 call 2: where the exchange across clusters starts to win (the split rule's thresholds)
          43: [(1, 1, 1, 32, 2048, 128, False, ("x16p", "x32p", "x64p")),
               (1, 1, 1, 32, 4096, 128, False, ("x16p", "x32p", "x64p")),
               (1, 1, 1, 32, 8192, 128, False, ("x16p", "x32p", "x64p")),
               (1, 1, 1, 32, 16384, 128, False, ("x32p", "x64p")),
               (1, 1, 1, 32, 2048, 64, False, ("x16p", "x32p", "x64p")),
               (1, 1, 1, 32, 4096, 64, False, ("x16p", "x32p", "x64p")),
               (1, 1, 1, 32, 8192, 64, False, ("x16p", "x32p", "x64p")),
               (1, 1, 1, 32, 16384, 64, False, ("x32p", "x64p")),
               (2, 1, 1, 32, 4096, 128, False, ("x16p", "x32p")),
               (2, 1, 1, 32, 8192, 128, False, ("x16p", "x32p")),
               (3, 1, 1, 32, 8192, 128, False, ("x16p", "x32p")),
               (3, 1, 1, 32, 16384, 128, False, ("x16p", "x32p")),
               (2, 1, 1, 32, 4096, 64, False, ("x16p", "x32p")),
               (3, 1, 1, 32, 16384, 64, False, ("x16p", "x32p")),
               (1, 1, 1, 4, 8192, 128, True, ("x16p", "x32p", "x64p"))],
          # session 53 call 4: the exchange's staged / done signals as phases 2 / 3 of the cluster barrier
          # (the tree; its switch CL_PULL_PHASES was removed after call 4) against the mbarriers' release arrivals
          # (@s53: the tree before it, carried as kernels/_ab_s53.py)
          44: [(1, 1, 1, 32, 2048, 128, False, ("x16p", "x16p@s53", "o8p", "o8p@s53")),
               (1, 1, 1, 32, 2048, 64, False, ("x16p", "x16p@s53")),
               (1, 1, 1, 32, 4096, 128, False, ("x32p", "x32p@s53")),
               (1, 1, 1, 32, 16384, 128, False, ("x64p", "x64p@s53")),
               (1, 1, 1, 32, 16384, 64, False, ("x64p", "x64p@s53")),
               (4, 1, 1, 32, 2048, 128, False, ("x16p", "x16p@s53", "q4p", "q4p@s53")),
               (3, 1, 1, 32, 16384, 128, False, ("x32p", "x32p@s53"))],
          39: [(1, 1, 1, 32, 1024, 128, False, ("o8p", "x16p")),
               (1, 1, 1, 32, 1024, 64, False, ("o8p", "x16p")),
               (4, 1, 1, 32, 1024, 128, False, ("q4p", "o8p", "x16p")),
               (1, 1, 1, 32, 16384, 128, False, ("x16p", "x32")),
               (1, 1, 1, 32, 32768, 128, False, ("x16p", "x32", "x64")),
               (1, 1, 1, 32, 65536, 128, False, ("x16p", "x32", "x64")),
               (1, 1, 1, 32, 8192, 64, False, ("x16p", "x32", "o16")),
               (1, 1, 1, 32, 16384, 64, False, ("x16p", "x32", "kv32")),
               (1, 1, 1, 32, 32768, 64, False, ("x16p", "x32", "x64")),
               (2, 1, 1, 32, 16384, 128, False, ("x16p", "x32")),
               (4, 1, 1, 32, 16384, 128, False, ("x16p", "x16")),
               (7, 1, 1, 32, 8192, 128, False, ("x16p", "x16")),
               (4, 1, 1, 32, 16384, 64, False, ("x16p", "kv32"))]}
MODULES = {}


def module(name):
    """The sm90_fwd module a "config@module" name runs: the tree's, HEAD's copy, or this tree's with CL_SWIZZLE off."""
    from dhpfa.kernels import sm90_fwd
    mod = name.partition("@")[2]
    if not mod:
        return sm90_fwd
    if mod not in MODULES:
        if mod not in EDITS:  # a carried copy of an earlier sm90_fwd: kernels/_ab_<mod>.py (head: before session 44)
            import importlib
            MODULES[mod] = importlib.import_module(f"dhpfa.kernels._ab_{mod}")
        elif os.environ.get("CLUSTER_AB_WORKER"):  # a precompile worker: the parent wrote the copy
            import importlib
            MODULES[mod] = importlib.import_module(f"dhpfa.kernels._ab_{mod}")
        else:
            from small_tiles import module_variant
            MODULES[mod] = module_variant(sm90_fwd, *EDITS[mod], mod)
    return MODULES[mod]


# module variants by name: (text of sm90_fwd, its replacement). nosw: calls 1-2's switch (with the experiment's diff);
# even / more: the two-CTA cluster's split of a tile's n key blocks (part 1 the first n1, part 0 the rest; call 4)
EDITS = {"nosw": ("CL_SWIZZLE = gl.constexpr(True)", "CL_SWIZZLE = gl.constexpr(False)"),
         "even": ("        n1 = (n - 1) // 2\n", "        n1 = n // 2\n"),
         "more": ("        n1 = (n - 1) // 2\n", "        n1 = n // 3\n"),
         "skew0": ("CL_SKEW = gl.constexpr(1)", "CL_SKEW = gl.constexpr(0)"),
         # session 49 call 6: the workspace merge (WS_MERGE) for cluster builds with a global level above their clusters
         # at every head dim (at D <= 64 they merge in registers, where cl8 pairs, q16, o32 and o64 lost)
         "wsm": ("WS_MERGE: gl.constexpr = HEAD_DIM > 128 or",
                 "WS_MERGE: gl.constexpr = (CLUSTER > 0 and (PARTS >> cluster_levels(CLUSTER_N)) >= 2) or HEAD_DIM > 128 or"),
         # (session 51-52's switches of the exchange's earlier forms, noself / t0send / nst0 / words / copies, left
         # with them: their sm90_fwd is in commit a8cae62; session 52's last calls carried that file as _ab_s52a)
         # call 13: the two-CTA meeting's bulk copy as four copies of a quarter each, one per warp (lane 0)
         "chunk4": ('"setp.eq.u32 t0, tid, 0;\\nmov.u32 a, global_smem;\\nadd.u32 b, a, $1;\\ncvt.u32.u64 n, $2;\\n"\n'
                    '                        "cvt.u32.u64 x, $3;\\nadd.u32 a, a, x;\\n"',
                    '"and.b32 x, tid, 31;\\nsetp.eq.u32 t0, x, 0;\\nshr.u32 tid, tid, 5;\\nmov.u32 a, global_smem;\\n"\n'
                    '                        "add.u32 b, a, $1;\\ncvt.u32.u64 n, $2;\\nshr.u32 n, n, 2;\\nmul.lo.u32 tid, tid, n;\\n"\n'
                    '                        "cvt.u32.u64 x, $3;\\nadd.u32 a, a, x;\\nadd.u32 a, a, tid;\\n"')}


def api_prev_fn():
    """The API's call under the rule before session 45 (no two-CTA-an-SM cluster build for grids of 67-132 tiles):
    each call plans afresh with variants.FEW_PROGRAMS_CLUSTER_2X_SEQ out of reach (graph replay replays the kernel the
    capture launched, so the planning costs nothing there)."""
    import dhpfa
    from dhpfa.kernels import variants
    from small_tiles import patched_call
    return patched_call(lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(
        q, k, v, is_causal=causal, enable_gqa=k.shape[1] != q.shape[1]), variants, "FEW_PROGRAMS_CLUSTER_2X_SEQ", 1 << 62)


def launch_fn(name):
    if name == "api_prev":
        return api_prev_fn()
    mod, tiles = module(name), CONFIGS[name.partition("@")[0]]

    def fn(q, k, v, causal):  # (B, H, S, D) inputs, as the bench's
        b, h, s, d = q.shape
        out = torch.empty_like(q)
        lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)
        mod.launch(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out.transpose(1, 2), lse, d ** -0.5,
                   causal, k.shape[2] - s, **tiles)
        return out
    return fn


def _compile_one(job):
    """Compile (warm up) one build: fills Triton's cache."""
    b, sq, sk, h, hk, d, causal, dt, name = job
    mod = module(name)
    q = torch.empty(b, sq, h, d, device="cuda", dtype=dt)
    k = torch.empty(b, sk, hk, d, device="cuda", dtype=dt)
    grid, args, kwargs = mod.launch_args(q, k, k, torch.empty_like(q), torch.empty(b, h, sq, device="cuda"),
                                         0.1, causal, sk - sq, **CONFIGS[name.partition("@")[0]])
    mod.attn_fwd_sm90_ws.warmup(*args, grid=grid, **kwargs)
    return name


def precompile(procs, call, checks, timing=True):
    import multiprocessing as mp
    jobs = {}
    for c in checks:
        jobs[(c[5], c[6], c[7], c[8])] = c
    for b, h, hk, sq, sk, d, causal, names in (TIMING[call] if timing else ()):
        for n in names:
            if n == "api_prev":
                continue
            jobs.setdefault((d, causal, torch.bfloat16, n), (b, sq, sk, h, hk, d, causal, torch.bfloat16, n))
    for n in {j[8] for j in jobs.values()}:
        module(n)  # written before the workers import it
    os.environ["CLUSTER_AB_WORKER"] = "1"
    ctx = mp.get_context("spawn")
    with ctx.Pool(procs) as pool:
        for _ in pool.imap_unordered(_compile_one, list(jobs.values())):
            pass
    return len(jobs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--precompile", type=int, default=0)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--timing-only", action="store_true")
    ap.add_argument("--checks-only", action="store_true", help="the float64 checks and bitwise repeats, no timing")
    ap.add_argument("--call", type=int, default=2, help="which call's timing cases (TIMING)")
    ap.add_argument("--checks", default="", help="only the checks of these configurations (comma-separated)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    from sm90_check import check
    import time
    t0 = time.time()
    global CHECKS
    if args.call == 6:
        CHECKS = CHECKS6
    if args.call == 16:
        CHECKS = CHECKS16
    if args.call == 19:
        CHECKS = CHECKS19
    if args.call == 20:
        CHECKS = CHECKS20
    if args.call == 21:
        CHECKS = CHECKS21
    if args.call == 22:
        CHECKS = CHECKS22
    if args.call == 23:
        CHECKS = CHECKS23
    if args.call == 24:
        CHECKS = CHECKS24
    if args.call == 25:
        CHECKS = CHECKS25
    if args.call == 27:
        CHECKS = CHECKS27
    if args.call == 30:
        CHECKS = CHECKS30
    if args.call == 32:  # the clusters of eight with level 2's ready mbarrier
        CHECKS = [c for c in CHECKS30 if c[8] in ("o8", "o16")] + \
            [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name) for name in ("o32", "o64") for d in (96, 128)
             for b, sq, sk, h, hk in ((1, 1, 30001, 8, 1), (1, 4, 40000, 2, 2), (1, 100, 5000, 1, 1), (1, 7, 2000, 1, 1))
             for causal in (False, True)]
    if args.call == 34:  # the workspace merge at D=64
        CHECKS = [(b, sq, sk, h, hk, 64, causal, torch.bfloat16, name)
                  for name in ("o64@wsm", "o32@wsm", "o16@wsm", "cl16@wsm", "cl8@wsm")
                  for b, sq, sk, h, hk in ((1, 1, 30001, 8, 1), (1, 100, 5000, 1, 1), (2, 7, 3000, 2, 2))
                  for causal in (False, True)]
    if args.call == 35:  # clusters of sixteen
        CHECKS = [(b, sq, sk, h, hk, d, causal, dt, name) for name in ("x16", "x32", "x64") for d in (64, 128)
                  for b, sq, sk, h, hk in ((1, 1, 30001, 8, 1), (1, 4, 40000, 2, 2), (1, 100, 5000, 1, 1),
                                           (1, 7, 2000, 1, 1), (3, 5, 100, 4, 4))
                  for causal in (False, True)
                  for dt in ((torch.bfloat16, torch.float16) if sq == 4 else (torch.bfloat16,))]
    if args.call in (38, 40, 41):  # the one-exchange meeting (41: the experiment's module, @cphase)
        CHECKS = [(b, sq, sk, h, hk, d, causal, dt, name) for name in ("x16p", "o8p", "q4p") for d in (64, 128)
                  for b, sq, sk, h, hk in ((1, 1, 30001, 8, 1), (1, 4, 40000, 2, 2), (1, 100, 5000, 1, 1),
                                           (1, 7, 2000, 1, 1), (3, 5, 100, 4, 4), (2, 65, 3000, 2, 1),
                                           (1, 32, 8192, 1, 1))
                  for causal in (False, True)
                  for dt in ((torch.bfloat16, torch.float16) if sq == 4 else (torch.bfloat16,))]
    if args.call == 41:
        CHECKS = [c[:8] + (c[8] + "@cphase",) for c in CHECKS]
    if args.call in (42, 44):  # the exchange across clusters (44: and within one, on the cluster barrier's phases)
        CHECKS = [(b, sq, sk, h, hk, d, causal, dt, name)
                  for name in (("x32p", "x64p") if args.call == 42 else ("x16p", "o8p", "q4p", "x32p", "x64p"))
                  for d in (64, 128)
                  for b, sq, sk, h, hk in ((1, 1, 30001, 8, 1), (1, 4, 40000, 2, 2), (1, 100, 5000, 1, 1),
                                           (1, 7, 2000, 1, 1), (3, 5, 100, 4, 4), (2, 65, 3000, 2, 1),
                                           (1, 32, 65536, 1, 1))
                  for causal in (False, True)
                  for dt in ((torch.bfloat16, torch.float16) if sq == 4 else (torch.bfloat16,))]
    if args.call == 31:  # 32 / 64 parts in clusters of eight
        CHECKS = [(b, sq, sk, h, hk, d, causal, torch.bfloat16, name) for name in ("o32", "o64") for d in (64, 128)
                  for b, sq, sk, h, hk in ((1, 1, 30001, 8, 1), (1, 4, 40000, 2, 2), (1, 100, 5000, 1, 1),
                                           (1, 7, 2000, 1, 1))
                  for causal in (False, True)]
    if args.call == 13:  # the two-CTA builds' checks, on the edited module
        CHECKS = [c[:8] + (c[8] + "@chunk4",) for c in CHECKS if c[8] in ("cl2", "cl2n64")]
    if args.checks:
        CHECKS = [c for c in CHECKS if c[8] in args.checks.split(",")]
    if args.precompile:
        n = precompile(args.precompile, args.call, () if args.timing_only else CHECKS, timing=not args.checks_only)
        print(f"precompiled {n} builds in {time.time() - t0:.0f} s", flush=True)
    ok = True
    checks = []
    for c in (CHECKS[:4] if args.smoke else () if args.timing_only else CHECKS):
        b, sq, sk, h, hk, d, causal, dt, name = c
        try:
            err, bad = check(b, sq, sk, h, hk, d, causal, dt, CONFIGS[name.partition("@")[0]], module(name).launch)
        except RuntimeError as e:  # (a launch the driver refuses: said, and the run goes on)
            err, bad = float("inf"), f"{type(e).__name__}: {e}"
        good = err < {torch.bfloat16: 1e-2, torch.float16: 2e-3}[dt] and not bad
        ok &= good
        checks.append(dict(config=name, shape=[b, sq, sk, h, hk, d], causal=causal, dtype=str(dt), rel_err=err,
                           bad=bad))
        if not good:
            print(f"FAIL {name} {(b, sq, sk, h, hk, d)} causal={causal} {dt}: {err:.2e} {bad}", flush=True)
    print(f"correctness: {len(checks)} checks, " + ("all OK" if ok else "FAILURES") + f" ({time.time() - t0:.0f} s)",
          flush=True)
    rep = {}
    repeats = ((("cl4n64r", (1, 8, 8, 512, 512, 64)), ("cl4n64r@skew0", (1, 8, 8, 512, 512, 64))) if args.call == 6 else
               (("cl2r", (1, 16, 16, 512, 1024, 64)), ("cl2n64r", (1, 16, 16, 512, 512, 64))) if args.call == 16 else
               (("cl2n64s2rt", (1, 16, 16, 512, 1024, 128)),) if args.call == 19 else
               (("kv8s4", (1, 8, 8, 4, 8192, 64)), ("kv16s3", (1, 8, 8, 4, 8192, 128))) if args.call == 20 else
               (("kv16@flat", (1, 8, 8, 4, 8192, 64)), ("kv8@flat", (1, 8, 8, 4, 8192, 128))) if args.call == 21 else
               (("kv32r", (1, 8, 8, 4, 8192, 64)), ("kv32n64r", (1, 8, 8, 4, 8192, 128))) if args.call == 22 else
               (("kv16n256", (1, 8, 8, 4, 8192, 64)), ("kv4n256", (1, 8, 8, 4, 1024, 64))) if args.call == 23 else
               (("cl16", (1, 8, 8, 4, 8192, 64)), ("cl8", (1, 8, 8, 4, 8192, 128))) if args.call == 24 else
               (("cl8", (1, 8, 8, 4, 8192, 128)), ("cl16", (4, 1, 1, 32, 8192, 64))) if args.call == 25 else
               (("q8", (1, 8, 8, 4, 8192, 128)), ("q4", (1, 8, 8, 4, 1024, 64)),
                ("q16", (4, 1, 1, 32, 8192, 128))) if args.call == 27 else
               (("o8", (1, 8, 8, 4, 8192, 128)), ("o8", (1, 8, 8, 4, 1024, 64)), ("o16", (4, 1, 1, 32, 8192, 128)),
                ("q8", (1, 8, 8, 4, 8192, 128))) if args.call == 30 else
               (("o32", (1, 1, 1, 32, 32768, 128)), ("o64", (1, 1, 1, 32, 32768, 64))) if args.call == 31 else
               (("o8", (1, 8, 8, 4, 8192, 128)), ("o16", (4, 1, 1, 32, 8192, 128)),
                ("o64", (1, 1, 1, 32, 65536, 96))) if args.call == 32 else
               (("o64@wsm", (1, 1, 1, 32, 32768, 64)), ("cl16@wsm", (1, 8, 8, 4, 16384, 64))) if args.call == 34 else
               (("x32", (1, 1, 1, 32, 16384, 128)), ("x16", (4, 1, 1, 32, 8192, 128))) if args.call == 35 else
               (("x16p", (1, 1, 1, 32, 16384, 128)), ("x16p", (4, 1, 1, 32, 8192, 64)),
                ("o8p", (1, 8, 8, 4, 4096, 128)), ("q4p", (4, 1, 1, 32, 2048, 64))) if args.call in (38, 40) else
               (("x32p", (1, 1, 1, 32, 16384, 128)), ("x64p", (1, 1, 1, 32, 32768, 64)),
                ("x64p", (2, 1, 1, 7, 40000, 128))) if args.call == 42 else
               (("x16p", (1, 1, 1, 32, 16384, 128)), ("o8p", (1, 8, 8, 4, 4096, 128)), ("q4p", (4, 1, 1, 32, 2048, 64)),
                ("x32p", (1, 1, 1, 32, 16384, 128)), ("x64p", (1, 1, 1, 32, 32768, 64))) if args.call == 44 else
               (("x16p@cphase", (1, 1, 1, 32, 16384, 128)), ("x16p@cphase", (4, 1, 1, 32, 8192, 64)),
                ("o8p@cphase", (1, 8, 8, 4, 4096, 128)), ("q4p@cphase", (4, 1, 1, 32, 2048, 64))) if args.call == 41 else
               (("cl4", (1, 4, 4, 512, 2048, 64)), ("cl8", (1, 2, 2, 512, 4096, 128)),
                ("pk_cl8", (1, 32, 8, 1, 8192, 128))))
    for name, (b, h, hk, sq, sk, d) in (() if args.smoke or args.timing_only or (args.checks and not args.checks_only)
                                        else repeats):
        fn = launch_fn(name)
        g = torch.Generator(device="cuda").manual_seed(5)
        q = torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16, generator=g)
        k, v = (torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
        from cluster_ab import bitwise_repeats
        same, same_g = bitwise_repeats(fn, q, k, v, 50)
        rep[name] = (same, same_g)
        print(f"bitwise repeats {name}: eager {same}/50, graph {same_g}/50", flush=True)
        ok &= same == 50 and same_g == 50
    res = []
    if not args.smoke and not args.checks_only:
        from dhpfa.measure import bench
        from dhpfa.measure.bench import interleaved_ms
        for b, h, hk, sq, sk, d, causal, names in TIMING[args.call]:
            peers = bench.peer_kernels(gqa=hk != h)
            kernels = {"api": peers["dhpfa"]}
            if hk == h:
                kernels["sdpa_cudnn"] = peers["sdpa_cudnn"]
            for n in names:
                kernels[n] = launch_fn(n)
            g = torch.Generator(device="cuda").manual_seed(1)
            sets = [(torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16, generator=g),
                     torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g),
                     torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g)) for _ in range(4)]
            errors = {}
            times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, graph=True, batch_ms=5.0, errors=errors)
            us = {n: statistics.median(t) * 1000 for n, t in times.items()}
            x = {n: statistics.median(a / c for a, c in zip(times["api"], t)) for n, t in times.items()}
            res.append(dict(case=[b, h, hk, sq, sk, d, causal], us=us, speedup_vs_api=x, errors=errors))
            print(f"{(b, h, hk, sq, sk, d, 'causal' if causal else '')}: " +
                  "  ".join(f"{n}={u:.2f}us(x{x[n]:.3f})" for n, u in us.items()) + (f" {errors}" if errors else ""),
                  flush=True)
    with open(os.path.join(args.out, "cluster_tree_ab.json"), "w") as f:
        json.dump(dict(device=torch.cuda.get_device_name(), checks=checks, repeats=rep, results=res, correct=ok), f,
                  indent=1)
    print("correctness:", "all OK" if ok else "FAILURES", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
