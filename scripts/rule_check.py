"""Session 46: the API with this session's dispatch rules against the API without them (api_prev: each rule's switch
out of reach), beside cuDNN (SDPA, enable_gqa where the heads are grouped), in CUDA-graph replay of many calls
(interleaved rounds in random order); each case's API output against a float64 reference first, and the variant each
plan chose. Rules: variants.SPLIT_KV_ALL_SMS_MAX_D (split-KV grids of 8+ parts fill every SM at D <= 64) and
variants.SM90_LONG_FILL_X2 (the 128-row two-consumer build in long_tiles_fill's wave model).

    PYTHONPATH=src:scripts python3 scripts/rule_check.py --out DIR [--rounds 9]
        [--set calls3|fewrows|causalmid|packed|cltree|fewrows48|quads48|fold48|octs49|x16|pull51|...|s60b|s61]
"""
import argparse
import json
import math
import os
import statistics

import torch

import dhpfa
from dhpfa import api
from dhpfa.kernels import variants
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
import small_tiles
from small_tiles import patched_call

# (B, H, H_kv, S_q, S_k, D, causal)
CASES = [  # split-KV at D <= 64: decode of grouped heads (packed: H_kv tiles of H / H_kv rows), few-tile prefill
    (1, 32, 8, 1, 32768, 64, False), (1, 32, 8, 1, 8192, 64, False), (1, 32, 8, 1, 131072, 64, False),
    (2, 32, 8, 1, 16384, 64, False), (1, 16, 4, 1, 65536, 64, False), (1, 32, 8, 1, 32768, 32, False),
    (1, 2, 2, 512, 16384, 64, False), (1, 1, 1, 512, 32768, 64, False), (4, 32, 8, 1, 8192, 64, False),
    # the 128-row build in the wave model (non-causal D=64)
    (1, 6, 6, 2048, 2048, 64, False), (1, 8, 8, 2048, 2048, 64, False), (1, 16, 16, 2048, 2048, 64, False),
    (1, 40, 40, 2048, 2048, 64, False), (1, 20, 20, 4096, 4096, 64, False), (1, 8, 8, 4096, 4096, 64, False),
    (1, 4, 4, 8192, 8192, 64, False), (1, 2, 2, 8192, 8192, 64, False), (1, 2, 2, 16384, 16384, 64, False),
    (1, 1, 1, 32768, 32768, 64, False), (2, 16, 16, 1024, 8192, 64, False), (1, 12, 12, 3072, 3072, 64, False),
    (1, 32, 4, 2048, 2048, 64, False)]


# --set fewrows (call 5): variants.FEW_ROWS_FILL (the 128-row build for calls of at most 1,024 queries in the short tiles'
# key band, D=64 non-causal), and D=128 decode of many sequences (one query, H = H_kv) beside the 64-row builds
FEWROWS = [(1, 32, 32, 512, 4096, 64, False), (4, 8, 8, 512, 2048, 64, False), (1, 16, 16, 1024, 2048, 64, False),
           (8, 8, 8, 256, 4096, 64, False), (2, 16, 16, 1024, 4096, 64, False), (1, 64, 64, 512, 2048, 64, False),
           (2, 32, 32, 1024, 3072, 64, False), (1, 24, 24, 1024, 4096, 64, False),
           (128, 8, 8, 1, 512, 128, False), (32, 32, 32, 1, 2048, 128, False), (64, 16, 16, 1, 1024, 128, False)]


# --set causalmid (call 7): causal D=128 at short lengths where select's paired 128-row units (n64s3_bal) leave SMs idle
# ((1,32,8,512,512) causal: 64 units on 132 SMs; wide sweep 14.25 us against cuDNN's 13.08), beside the 64-row short
# tiles and the split-key build (SM90_FEW_PROGRAMS_CAUSAL_2X)
CAUSALMID = [(1, 32, 32, 512, 512, 128, True), (1, 24, 24, 512, 512, 128, True), (1, 40, 40, 512, 512, 128, True),
             (1, 48, 48, 512, 512, 128, True), (2, 32, 32, 512, 512, 128, True), (1, 32, 32, 384, 384, 128, True),
             (1, 20, 20, 768, 768, 128, True), (1, 64, 64, 512, 512, 128, True), (1, 32, 8, 512, 512, 128, True)]


# --set packed (session 47 call 2): variants.PACKED_SPLIT_KV_SHARE (packed grouped-query calls of 2-32 queries: 8-64 part
# splits on half of the SMs at D > 64, as the unpacked tables) against every SM
PACKED = [(1, 32, 8, 4, 8192, 128, False), (1, 32, 8, 5, 8192, 128, False), (1, 64, 8, 8, 32768, 128, False),
          (2, 32, 8, 16, 4096, 128, False), (1, 32, 4, 8, 32768, 128, False), (1, 28, 4, 4, 16384, 128, False),
          (1, 32, 8, 4, 16384, 256, False), (1, 32, 8, 4, 16384, 128, True), (2, 32, 8, 4, 16384, 128, False),
          (1, 32, 8, 4, 65536, 128, False), (1, 28, 4, 3, 16384, 96, False), (1, 32, 8, 4, 8192, 64, False)]


# --set cltree (session 47 call 6): variants.SPLIT_KV_CLUSTER_DIMS (its builds SM90_FEW_PROGRAMS_CL_TREE; splits of 4 / 8 / 16 parts with pairs of parts as
# clusters of two, sm90_fwd CL_TREE) against the global trees: decode (packed by the API: 4 rows of 8 key/value heads),
# MQA decode, and few-tile prefill, causal among them
CLTREE = [(1, 32, 8, 1, 16384, 64, False), (1, 32, 8, 1, 32768, 64, False), (1, 32, 8, 1, 4096, 128, False),
          (1, 32, 8, 1, 16384, 128, False), (1, 32, 8, 1, 32768, 128, False), (4, 32, 1, 1, 8192, 64, False),
          (4, 32, 1, 1, 8192, 128, False), (2, 32, 8, 1, 16384, 128, False), (1, 32, 8, 1, 16384, 32, False),
          (1, 28, 4, 1, 16384, 96, False), (4, 32, 8, 1, 4096, 64, False), (4, 32, 8, 1, 4096, 128, False),
          (1, 4, 4, 512, 2048, 64, False), (1, 4, 4, 512, 2048, 128, False), (1, 1, 1, 512, 16384, 128, False),
          (1, 1, 1, 512, 16384, 64, False), (1, 2, 2, 1024, 4096, 128, False), (1, 1, 1, 2048, 2048, 128, True),
          (1, 1, 1, 2048, 2048, 64, True), (1, 4, 4, 512, 4096, 32, False)]


# --set fewrows48 (session 48 call 3): variants.FEW_ROWS_SPLIT_KV (calls of at most 32 queries a head take the cluster
# trees of 4 parts from 1,024 keys at D = 64 / 96 / 128 and of 16 from 3,072 at D=64) against the rule before; decode
# (the API packs (1,32,8,1,S) as 4 rows of 8 key/value heads), MQA, a few-query call, and two unchanged controls
FEWROWS48 = [(1, 32, 8, 1, 1024, 64, False), (1, 32, 8, 1, 1536, 64, False), (1, 32, 8, 1, 3072, 64, False),
             (1, 32, 8, 1, 4096, 64, False), (1, 32, 8, 1, 6144, 64, False), (4, 32, 1, 1, 1024, 64, False),
             (4, 32, 1, 1, 4096, 64, False), (2, 32, 8, 1, 1024, 64, False), (1, 32, 8, 1, 1024, 128, False),
             (1, 32, 8, 1, 1536, 128, False), (4, 32, 1, 1, 1024, 128, False), (2, 32, 8, 1, 1024, 128, False),
             (1, 64, 8, 1, 1536, 128, False), (1, 28, 4, 1, 1024, 96, False), (1, 28, 4, 1, 1536, 96, False),
             (1, 8, 8, 16, 1024, 128, False), (1, 8, 8, 16, 1536, 64, True),
             (1, 32, 32, 1, 1024, 128, False), (1, 32, 8, 1, 8192, 64, False)]


# --set quads48 (session 48 call 9): the API with clusters of four for calls of few rows (variants.SM90_FEW_PROGRAMS_CL4_TREE,
# with it FEW_ROWS_SPLIT_KV's earlier splits) against the API without them (the rule at the session's start, on the
# session's cluster meeting); decode as the API packs it, MQA, D=96, one-row tiles, and controls
QUADS48 = [(1, 32, 8, 1, 1024, 64, False), (1, 32, 8, 1, 2048, 64, False), (1, 32, 8, 1, 4096, 64, False),
           (1, 32, 8, 1, 6144, 64, False), (1, 32, 8, 1, 1024, 128, False), (1, 32, 8, 1, 2048, 128, False),
           (1, 32, 8, 1, 4096, 128, False), (1, 32, 8, 1, 8192, 128, False), (1, 32, 8, 1, 32768, 128, False),
           (4, 32, 1, 1, 1024, 64, False), (4, 32, 1, 1, 4096, 64, False), (4, 32, 1, 1, 2048, 128, False),
           (4, 32, 1, 1, 8192, 128, False), (4, 32, 1, 1, 16384, 128, False), (2, 32, 8, 1, 2048, 128, False),
           (1, 28, 4, 1, 4096, 96, False), (1, 16, 16, 1, 1024, 128, False), (1, 2, 2, 16, 8192, 128, True),
           (1, 64, 8, 1, 4096, 128, False), (1, 32, 32, 1, 1024, 128, False), (1, 32, 8, 1, 16384, 64, False)]


# --set octs49 (session 49 call 3): the API with clusters of eight for calls of few rows (variants.SM90_FEW_PROGRAMS_CL8_TREE,
# with it FEW_ROWS_SPLIT_KV's eight parts from 1,024 keys at D = 64 / 96 / 128) against the API of the session's start
# (quads, eight parts from 2,048 at D=64 only); quads48's cases and grids of 12-16 tiles
OCTS49 = QUADS48 + [(1, 60, 15, 1, 2048, 128, False), (1, 48, 12, 1, 4096, 64, False), (1, 32, 4, 1, 4096, 128, False),
                    (1, 32, 8, 4, 4096, 128, False), (2, 32, 8, 1, 1024, 64, False), (1, 32, 8, 1, 1536, 128, False),
                    # (call 4) 32 / 64 parts as clusters of eight at D = 96 / 128: MQA of one or two sequences
                    (1, 32, 1, 1, 16384, 128, False), (1, 32, 1, 1, 32768, 128, False), (2, 32, 1, 1, 32768, 128, False),
                    (1, 28, 1, 1, 65536, 96, False),
                    # (call 7) and at D=64, merging from the workspace
                    (1, 32, 1, 1, 16384, 64, False), (1, 32, 1, 1, 32768, 64, False), (2, 32, 1, 1, 32768, 64, False),
                    (1, 16, 1, 1, 65536, 64, False)]


# --set x16 (session 50 call 2): the API with clusters of sixteen for calls of few rows (variants.SM90_FEW_PROGRAMS_CL16_TREE,
# FEW_ROWS_X16_CTAS; FEW_ROWS_SPLIT_KV's sixteen parts from 4,096 keys in call 2, 2,048 after it) against session 49's rule
# (clusters of eight)
X16 = [(1, 32, 1, 1, 4096, 128, False), (1, 32, 1, 1, 8192, 128, False), (1, 32, 1, 1, 16384, 128, False),
       (1, 32, 1, 1, 32768, 128, False), (1, 32, 1, 1, 65536, 128, False), (1, 32, 1, 1, 4096, 64, False),
       (1, 32, 1, 1, 16384, 64, False), (1, 32, 1, 1, 32768, 64, False), (4, 32, 1, 1, 4096, 128, False),
       (4, 32, 1, 1, 8192, 128, False), (4, 32, 1, 1, 16384, 128, False), (1, 32, 4, 1, 4096, 128, False),
       (1, 32, 4, 1, 16384, 128, False), (1, 28, 4, 1, 16384, 96, False), (2, 32, 1, 1, 32768, 128, False),
       (1, 28, 7, 1, 8192, 128, False), (2, 32, 2, 1, 16384, 128, False), (1, 8, 1, 4, 16384, 128, False),
       (1, 2, 2, 16, 8192, 128, True), (1, 32, 8, 1, 8192, 128, False),
       # (call 3) the rule after call 2: sixteen parts from 2,048 keys on up to four tiles, one cluster of sixteen past
       # the share of the SMs, D=64's smaller part counts where the split's clusters do not fit
       (1, 32, 1, 1, 2048, 128, False), (1, 32, 1, 1, 2048, 64, False), (4, 32, 1, 1, 2048, 128, False),
       (1, 32, 4, 1, 2048, 96, False), (1, 28, 7, 1, 16384, 128, False), (1, 20, 5, 1, 8192, 128, False),
       (2, 32, 1, 1, 32768, 64, False), (4, 32, 1, 1, 32768, 64, False), (4, 32, 1, 1, 16384, 64, False),
       (1, 28, 7, 1, 4096, 128, False)]


# --set pull52 (session 52 call 5): the exchange on by default (loads from each rank's shared memory) against the tree
# ("api_prev" flips CL_PULL_DEFAULT, as pull51) on X16's first twenty cases (call 3 read the other eleven) and on
# small grids whose split may be one cluster (the (1,8,512,64) goal of issue 5 among them)
PULL52 = X16[:20] + [(1, 8, 8, 512, 512, 64, False), (1, 8, 8, 512, 512, 128, False), (1, 16, 16, 512, 1024, 64, False),
                     (1, 4, 4, 512, 2048, 64, False), (1, 2, 2, 512, 4096, 128, False), (1, 8, 8, 512, 512, 64, True),
                     (1, 32, 8, 1, 1024, 128, False), (1, 32, 8, 1, 4096, 64, False)]


# --set pull53 (session 53 call 3): calls of few rows at D = 64 / 128 split into 32 / 64 parts as two / four clusters of
# sixteen that exchange, their slices meeting in the workspace (variants.FEW_ROWS_PULL_SPLIT, sm90_fwd.CL_PULL_CLUSTERS)
# against session 52's rule and kernels ("api_prev": both switches off); the last two cases' variants do not change
PULL53 = [(1, 32, 1, 1, 4096, 128, False), (1, 32, 1, 1, 8192, 128, False), (1, 32, 1, 1, 16384, 128, False),
          (1, 32, 1, 1, 32768, 128, False), (1, 32, 1, 1, 65536, 128, False), (1, 32, 1, 1, 4096, 64, False),
          (1, 32, 1, 1, 16384, 64, False), (1, 32, 1, 1, 65536, 64, False), (2, 32, 1, 1, 16384, 128, False),
          (2, 32, 1, 1, 65536, 64, False), (3, 32, 1, 1, 16384, 128, False), (1, 32, 2, 1, 8192, 128, False),
          (1, 32, 1, 4, 16384, 128, False), (1, 8, 1, 1, 32768, 128, False), (2, 32, 1, 1, 4096, 64, False),
          (1, 32, 8, 1, 8192, 128, False), (1, 32, 1, 1, 2048, 128, False)]


# --set swap54 (session 54): one query per sequence with 2-8 query heads a key/value head on the swapped-GEMM decode
# kernel (variants.swap_decode_parts, kernels/sm90_decode.py) against the forward kernels' packed tiles ("api_prev":
# SWAP_DECODE off); call 5's cells and the rule's untimed ones (4 pairs, groups of 7 / 8, 15 pairs, 131,072 keys); the
# last two stay on the forward kernels (their variants do not change); after call 7 the rule leaves 2 and 15 pairs
# ((1,16,2,..), (3,40,5,..)) to the forward kernels too; session 55 added D=64 with 4 pairs (session 54 timed the swap
# kernel there at ~19 us against cuDNN's 15.4, the forward kernels not)
SWAP54 = [(1, 32, 8, 1, 16384, 128, False), (1, 32, 8, 1, 32768, 128, False), (1, 32, 8, 1, 65536, 128, False),
          (1, 32, 8, 1, 131072, 128, False), (1, 32, 8, 1, 16384, 64, False), (1, 32, 8, 1, 65536, 64, False),
          (2, 32, 8, 1, 4096, 64, False), (2, 32, 8, 1, 8192, 64, False), (2, 32, 8, 1, 16384, 128, False),
          (2, 32, 8, 1, 65536, 128, False), (1, 32, 4, 1, 32768, 128, False), (1, 28, 4, 1, 65536, 128, False),
          (1, 16, 2, 1, 65536, 128, False), (3, 40, 5, 1, 16384, 128, False), (1, 64, 8, 1, 32768, 128, False),
          (1, 32, 8, 1, 8192, 128, False), (4, 32, 8, 1, 16384, 128, False), (1, 32, 4, 1, 32768, 64, False),
          (1, 32, 4, 1, 16384, 64, False), (1, 32, 4, 1, 65536, 64, False), (1, 48, 6, 1, 32768, 128, False)]


# --set merge55 (session 55): the swap path with its parts merged in the launch (variants.SWAP_DECODE_MERGE) against
# the combine's second launch ("api_prev": the switch flipped); the cells the rule sends to the swap kernel
MERGE55 = [c for c in SWAP54 if c[:2] + c[2:3] not in ((1, 16, 2), (3, 40, 5), (4, 32, 8), (1, 48, 6))
           and (c[4], c[5]) != (8192, 128)]


# --set s56 (session 56): the API against session 56's start (api_prev: D=64 decode on the combine's second launch,
# variants.SWAP_DECODE_MERGE_DIMS = (128,); two pairs on the forward kernels, SWAP_DECODE_TWO_PAIRS = {}); D=128 cells
# of 4-16 pairs beside (the same rule both ways, so the same variant: their spread is the noise)
S56 = [(2, 32, 8, 1, 4096, 64, False), (2, 32, 8, 1, 8192, 64, False), (1, 32, 8, 1, 16384, 64, False),
       (1, 32, 4, 1, 16384, 64, False), (1, 32, 4, 1, 65536, 64, False), (1, 16, 2, 1, 65536, 128, False),
       (1, 16, 2, 1, 131072, 128, False), (1, 12, 2, 1, 65536, 128, False), (1, 14, 2, 1, 262144, 128, False),
       (1, 32, 8, 1, 16384, 128, False), (2, 32, 8, 1, 16384, 128, False)]
# --set s56b (session 56 call 6): two pairs at D=64 on the swap kernel in 64 parts (combine), against the forward kernels
S56B = [(1, 16, 2, 1, 65536, 64, False), (1, 16, 2, 1, 131072, 64, False), (1, 12, 2, 1, 65536, 64, False),
        (1, 14, 2, 1, 262144, 64, False)]

# --set s57 (session 57): the API against session 57's start (api_prev: the merge in registers without PREFETCH, D=64
# builds merging up to 32 parts so two pairs at D=64 on the combine): s56's and s56b's cells
S57 = S56 + S56B

# --set s58 (session 58): the API against session 58's start (api_prev: the one-program merge, thread 0 reading the
# done-words: SWAP_DECODE_SPLIT and SWAP_DECODE_MERGE_WIDE off): s57's cells and a 16-part D=128 one at 4 pairs
S58 = S57 + [(1, 32, 4, 1, 32768, 128, False)]

# --set s59 (session 59): 4 parts on the swapped-GEMM decode kernel for 31-33 (sequence, key/value head) pairs from
# 1,024 keys (variants.SWAP_DECODE_PARTS, SWAP_DECODE_LEAST_KEYS) against the forward kernels' clusters of four
# (api_prev: the part counts before); 512 keys stays on the forward kernels both ways (same variant: the noise)
S59 = [(4, 32, 8, 1, sk, d, False) for d in (64, 128) for sk in (512, 1000, 1024, 2048, 4096, 16384, 65536)] + \
      [(b, h, hk, 1, 4096, d, False) for d in (64, 128) for b, h, hk in ((8, 28, 4), (11, 24, 3), (31, 8, 1))]
# --set s59b (call 4): the key thresholds lowered too (SWAP_DECODE_LEAST_KEYS: 16 and 8 parts from 1,024 keys, 4 from
# 512) against session 59's start (api_prev: the part counts and thresholds before); 4 pairs at D=128 (16 parts, half
# the SMs) were not timed below 16,384 keys before
S59B = [(1, 32, 8, 1, sk, d, False) for d in (64, 128) for sk in (1024, 2048, 4096, 8192)] + \
       [(2, 32, 8, 1, sk, 64, False) for sk in (1024, 2048)] + [(2, 32, 8, 1, sk, 128, False) for sk in (1024, 4096, 8192)] + \
       [(1, 32, 4, 1, sk, 128, False) for sk in (1024, 4096, 8192)] + \
       [(4, 32, 8, 1, sk, d, False) for d in (64, 128) for sk in (512, 1000)]
# --set s59c (call 7): the fill rule (variants.SWAP_DECODE_FILL: sm_count // pairs parts for the pair counts the part
# counts above leave, 5-48 pairs at D=64, 5-24 pairs up to 4,096 keys at D=128) against the rule without it (api_prev);
# 5 and 15 pairs were not in call 6
S59C = [(2, 24, 3, 1, 4096, 64, False), (3, 32, 4, 1, 1024, 64, False), (3, 32, 8, 1, 1024, 64, False),
        (3, 32, 8, 1, 16384, 64, False), (5, 32, 8, 1, 4096, 64, False), (6, 32, 8, 1, 16384, 64, False),
        (1, 40, 5, 1, 8192, 64, False), (2, 24, 3, 1, 4096, 128, False), (3, 32, 4, 1, 1024, 128, False),
        (3, 32, 8, 1, 1024, 128, False), (3, 32, 8, 1, 4096, 128, False), (1, 40, 5, 1, 4096, 128, False),
        (3, 40, 5, 1, 2048, 128, False)]

# --set s60 (session 60): parts of whole blocks whose counts differ by at most one (variants.SWAP_DECODE_EVEN, on)
# against session 54's equal parts (api_prev), at key counts where the equal parts ran fewer parts than the rule gave
# (2,049 keys in 16 parts: 9), and one count where both forms are the same (4,096: a check of the rounds' noise)
S60 = [(1, 32, 8, 1, sk, d, False) for d in (64, 128) for sk in (2049, 4097, 5000, 8193)] + \
      [(1, 32, 4, 1, sk, 128, False) for sk in (2049, 4097, 8193)] + \
      [(2, 32, 8, 1, sk, d, False) for d in (64, 128) for sk in (2049, 4097)] + \
      [(1, 32, 4, 1, 16385, 64, False), (1, 32, 4, 1, 20000, 64, False), (1, 16, 2, 1, 65537, 64, False),
       (1, 16, 2, 1, 33000, 128, False), (2, 24, 3, 1, 4097, 64, False), (1, 32, 8, 1, 4096, 128, False)]

# --set s60b (session 60): the rule's new pair and key ranges (SWAP_DECODE_FILL's tiers: D=64 49-66 pairs from 8,192
# keys, D=128 25-30 pairs to 4,096 and 5-8 pairs to 16,384; D=64's 32 parts for 4 pairs from 1,024 keys) against
# session 59's rule (api_prev)
S60B = [(7, 32, 8, 1, 8192, 64, False), (8, 32, 8, 1, 16384, 64, False), (7, 32, 4, 1, 1024, 128, False),
        (7, 32, 4, 1, 2048, 128, False), (5, 30, 6, 1, 3000, 128, False), (2, 24, 3, 1, 8192, 128, False),
        (1, 40, 5, 1, 16384, 128, False), (1, 56, 7, 1, 12000, 128, False), (1, 32, 4, 1, 2048, 64, False),
        (1, 32, 4, 1, 4097, 64, False), (1, 32, 4, 1, 8192, 64, False)]

# --set s61 (session 61): more pairs than SMs with a last wave of few (variants.SWAP_DECODE_OVER: the merged swap kernel
# in 4 parts for one full wave, 2 for two) against the rule before (api_prev: SWAP_DECODE_OVER empty, the forward kernels)
S61 = [(34, 32, 4, 1, sk, 128, False) for sk in (2048, 4096, 16384)] + \
      [(18, 32, 8, 1, 8192, 128, False), (20, 32, 8, 1, 4096, 128, False), (17, 32, 8, 1, 4097, 128, False),
       (68, 32, 4, 1, 2048, 128, False), (68, 32, 4, 1, 16384, 128, False), (34, 32, 4, 1, 8192, 64, False),
       (34, 32, 4, 1, 32768, 64, False), (20, 32, 8, 1, 16384, 64, False), (35, 32, 4, 1, 12000, 64, False)]

# --set s61b (session 61 call 5): the rule's later cells (D=128 three waves in 2 parts, last waves of up to 0.3 of the SMs)
S61B = [(75, 32, 4, 1, 4096, 128, False), (75, 32, 4, 1, 16384, 128, False), (100, 32, 4, 1, 4096, 128, False),
        (101, 32, 4, 1, 16384, 128, False), (42, 32, 4, 1, 4096, 128, False), (21, 32, 8, 1, 16384, 128, False)]

# --set s61c (session 61 call 9): the stream build (variants.swap_decode_stream: one full wave of pairs and a small last
# one) against call 4's rule (api_prev: no stream build, SWAP_DECODE_OVER with its one-wave entries: 4 parts)
S61C = [(34, 32, 4, 1, 1024, 128, False), (34, 32, 4, 1, 4096, 128, False), (17, 32, 8, 1, 2049, 128, False),
        (20, 32, 8, 1, 16384, 128, False), (42, 32, 4, 1, 4096, 128, False), (34, 32, 4, 1, 4096, 64, False),
        (34, 32, 4, 1, 16384, 64, False), (20, 32, 8, 1, 2048, 64, False), (41, 32, 4, 1, 8192, 64, False)]

# --set s62 (session 62): the stream build (its TAIL form) for two and three full waves of pairs and a small last one at
# D=128 (variants.SWAP_DECODE_STREAM_WAVES) against session 61's rule (api_prev: one wave on the stream build,
# SWAP_DECODE_OVER's 2 parts for two waves from 2,048 keys and three from 4,096, else the forward kernels); its causal
# cell is a one-key call under SDPA's top-left mask (call 2 read the same variant both ways), not a decode cell
S62 = [(75, 32, 4, 1, sk, 128, False) for sk in (1024, 2048, 16384)] + \
      [(100, 32, 4, 1, sk, 128, False) for sk in (1024, 2048, 4096)] + \
      [(34, 32, 8, 1, 4096, 128, False), (50, 32, 8, 1, 2048, 128, False), (68, 32, 4, 1, 2049, 128, True),
       (101, 32, 4, 1, 16384, 128, False), (34, 32, 4, 1, 1024, 128, False)]

# --set s63 (session 63): a program a pair on the stream kernel's smaller ring (variants.swap_decode_whole) against the
# rule without it (api_prev: SWAP_DECODE_WHOLE_MOST zero and SWAP_DECODE_WHOLE_K empty: the stream build or the
# forward kernels as session 62 left them)
S63 = [(34, 32, 4, 1, 1024, 128, False), (45, 32, 4, 1, 1024, 128, False), (75, 32, 4, 1, 1024, 128, False),
       (99, 32, 4, 1, 2048, 128, False), (40, 32, 4, 1, 4096, 128, False), (50, 32, 4, 1, 8192, 128, False),
       (25, 32, 8, 1, 1500, 128, False), (34, 32, 4, 1, 1024, 64, False), (50, 32, 4, 1, 2048, 64, False),
       (45, 32, 4, 1, 8192, 64, False), (66, 16, 4, 1, 1024, 64, False)]

# --set s63b (session 63 call 4): the rule's keys from 512 and up to 3,072 for every pair count (call 3's
# decode_stream_whole63 cells) against the rule without it
S63B = [(34, 32, 4, 1, 512, 128, False), (99, 32, 4, 1, 512, 128, False), (75, 32, 4, 1, 3072, 128, False),
        (68, 32, 4, 1, 3072, 128, False), (34, 32, 4, 1, 512, 64, False), (60, 32, 4, 1, 3000, 64, False),
        (66, 32, 4, 1, 3072, 64, False), (17, 32, 8, 1, 700, 128, False)]

# --set s63c (session 63 call 6): k whole pairs a program at D=128 up to 2,048 keys (variants.SWAP_DECODE_WHOLE_K)
# against the rule without it (the stream build or the forward kernels)
S63C = [(100, 32, 4, 1, 1024, 128, False), (150, 32, 4, 1, 1024, 128, False), (166, 32, 4, 1, 2048, 128, False),
        (200, 32, 4, 1, 1024, 128, False), (250, 32, 4, 1, 1024, 128, False), (120, 32, 4, 1, 2048, 128, False),
        (330, 32, 4, 1, 1024, 128, False), (100, 32, 8, 1, 700, 128, False), (150, 16, 4, 1, 2000, 128, False)]

# --set s63d (session 63 call 8): k whole pairs a program at D=64 and up to 4,096 keys (SWAP_DECODE_WHOLE_K, after call
# 7) against the rule without the whole-pair build
S63D = [(150, 32, 4, 1, 1024, 64, False), (166, 32, 4, 1, 4096, 64, False), (200, 32, 4, 1, 2048, 64, False),
        (100, 32, 4, 1, 4096, 64, False), (99, 32, 4, 1, 1500, 64, False), (100, 32, 8, 1, 3000, 64, False),
        (100, 32, 4, 1, 4096, 128, False), (150, 32, 4, 1, 4096, 128, False), (100, 32, 4, 1, 1024, 64, False)]

# --set s64 (session 64 call 4): one wave of pairs or less, a program a pair on the stream build
# (variants.SWAP_DECODE_ONE's tiers) against the rule without it (api_prev: SWAP_DECODE_ONE empty: the forward kernels);
# the last cell is outside the tiers (the same variant both ways)
S64 = [(17, 32, 4, 1, 1024, 128, False), (20, 32, 4, 1, 1536, 128, False), (24, 32, 4, 1, 1024, 128, False),
       (32, 32, 4, 1, 1024, 128, False), (33, 32, 4, 1, 2048, 128, False), (22, 32, 4, 1, 3072, 128, False),
       (20, 32, 4, 1, 800, 128, False), (16, 32, 8, 1, 1024, 128, False), (9, 32, 8, 1, 2048, 128, False),
       (28, 32, 4, 1, 1024, 64, False), (33, 32, 4, 1, 768, 64, False), (30, 32, 4, 1, 4096, 64, False),
       (33, 32, 4, 1, 2048, 64, False), (24, 16, 4, 1, 1000, 64, False), (24, 32, 4, 1, 2048, 128, False)]

# --set s64b (session 64 call 9): the whole-pair builds on the PAIR_UNITS schedule (variants.SWAP_DECODE_WHOLE_UNITS)
# and SWAP_DECODE_WHOLE_SPREAD's 2 x the SMs' programs in whole pairs (D=128, 1,024-2,048 keys, 3-8 x the SMs' pairs
# that no other rule takes) against both off (api_prev: the flat schedule's binary, the forward kernels there); the last
# five cells run the whole builds both ways (the PAIR_UNITS binary against session 63's)
S64B = [(64, 32, 8, 1, 1024, 128, False), (128, 32, 8, 1, 1024, 128, False), (120, 32, 4, 1, 2048, 128, False),
        (113, 32, 4, 1, 1500, 128, False), (165, 32, 4, 1, 1024, 128, False), (64, 32, 8, 1, 2048, 128, False),
        (131, 32, 8, 1, 1024, 128, False), (34, 32, 4, 1, 1024, 128, False), (100, 32, 4, 1, 1024, 128, False),
        (150, 32, 4, 1, 1024, 64, False), (45, 32, 4, 1, 8192, 64, False), (34, 32, 4, 1, 512, 128, False)]

# --set s64c (session 64 call 12): the spread rule past 8 x the SMs' pairs (k = ceil(pairs / 264) pairs a program at
# most in ceil(pairs / k) programs, up to 12 x) against the rule of call 9 (api_prev: up to 8 x: the forward kernels
# there)
S64C = [(275, 32, 4, 1, 1024, 128, False), (330, 32, 4, 1, 1024, 128, False), (330, 32, 4, 1, 2048, 128, False),
        (290, 32, 4, 1, 1024, 128, False), (165, 32, 8, 1, 1024, 128, False), (375, 32, 4, 1, 2048, 128, False)]

# --set s65 (session 65): SWAP_DECODE_WHOLE_SPREAD's balanced count first (D=128 3-12 x the SMs' pairs at 1,024-2,048
# keys, where the stream build, 2 x the SMs' programs or k pairs a program ran; D=64 from 198 programs at 1,024-16,384
# keys, where the forward kernels or k pairs a program ran) and SWAP_DECODE_ONE's third D=128 tier up to 16,384 keys,
# against session 64's rule (api_prev: _whole64, SWAP_DECODE_ONE's tier to 3,072 keys); the last cell is unchanged
S65 = [(105, 32, 4, 1, 1024, 128, False), (133, 32, 4, 1, 1024, 128, False), (133, 32, 4, 1, 2048, 128, False),
       (213, 32, 4, 1, 1024, 128, False), (166, 32, 4, 1, 2048, 128, False), (225, 32, 4, 1, 1024, 128, False),
       (113, 32, 4, 1, 1024, 128, False), (128, 32, 8, 1, 1024, 128, False), (33, 32, 4, 1, 8192, 128, False),
       (16, 32, 8, 1, 16384, 128, False), (33, 32, 4, 1, 4096, 128, False), (25, 32, 8, 1, 16384, 64, False),
       (33, 32, 8, 1, 4096, 64, False), (65, 32, 8, 1, 1024, 64, False), (128, 32, 8, 1, 4096, 64, False),
       (275, 32, 4, 1, 4096, 64, False), (165, 32, 8, 1, 16384, 64, False), (175, 32, 4, 1, 1024, 64, False),
       (75, 32, 4, 1, 1024, 64, False)]

# --set s65b (session 65 call 5): D=64's SWAP_DECODE_WHOLE_BAND and SWAP_DECODE_WHOLE_SPREAD to 32,768 keys (after call
# 4) against the rule of call 3 (api_prev: both to 8,192 / 16,384 keys, the forward kernels there); the last two cells
# are call 3's bench cells behind cuDNN (the same variant both ways)
S65B = [(21, 32, 8, 1, 16384, 64, False), (24, 32, 8, 1, 16384, 64, False), (21, 32, 8, 1, 32768, 64, False),
        (25, 32, 8, 1, 32768, 64, False), (65, 32, 8, 1, 32768, 64, False), (100, 32, 4, 1, 20000, 64, False),
        (16, 32, 8, 1, 1024, 128, False), (32, 32, 8, 1, 1024, 64, False)]

# --set s65c (session 65 call 6): D=128's spread to 4,096 keys, D=64's band and spread to 65,536 (after call 5) against
# call 5's rule (api_prev: 2,048 / 32,768 keys)
S65C = [(105, 32, 4, 1, 3072, 128, False), (105, 32, 4, 1, 4096, 128, False), (133, 32, 4, 1, 3072, 128, False),
        (213, 32, 4, 1, 4096, 128, False), (175, 32, 4, 1, 4096, 128, False), (165, 32, 8, 1, 4096, 128, False),
        (21, 32, 8, 1, 65536, 64, False), (25, 32, 8, 1, 65536, 64, False), (50, 32, 8, 1, 50000, 64, False)]


# --set s66 (session 66): MHA decode (one query a sequence, H = H_KV: a group of one) on the swap decode kernels under the
# grouped heads' rules (variants.SWAP_DECODE_MIN_GROUP = 1) against the forward kernels (api_prev: 2)
S66 = ([(b, 32, 32, 1, sk, d, False) for d in (128, 64) for sk in (1024, 4096) for b in (1, 2, 4, 5, 8, 16, 32)] +
       [(b, 32, 32, 1, 16384, d, False) for d in (128, 64) for b in (1, 2, 4, 8, 16)] +
       [(64, 16, 16, 1, 1024, 128, False), (32, 32, 32, 1, 2048, 128, False), (32, 32, 32, 1, 2048, 64, False),
        (1, 16, 16, 1, 32768, 128, False), (3, 40, 40, 1, 3000, 128, False), (64, 32, 32, 1, 1024, 128, False)])


# --set s66b (session 66 call 4): D=128's balanced whole-pair count past 12x the SMs' pairs up to 20x at 1,024-2,048 keys
# (variants.SWAP_DECODE_WHOLE_SPREAD_MORE) against the forward kernels (api_prev: the table empty)
S66B = [(256, 32, 8, 1, 1024, 128, False), (320, 32, 8, 1, 2048, 128, False), (330, 32, 8, 1, 1025, 128, False),
        (64, 32, 32, 1, 1024, 128, False), (80, 32, 32, 1, 2048, 128, False), (210, 32, 8, 1, 1500, 128, False),
        (300, 32, 8, 1, 1024, 128, False), (250, 32, 8, 1, 2000, 128, False)]


# --set g16 (session 66 call 7, an experiment): groups of 9-16 query heads a key/value head (Llama-3.1-405B's 128 / 8,
# Qwen3-235B's 64 / 4) on the swap decode kernels with NQ = 16 columns (their launchers pick NQ from the group; such
# builds are not in the audited set, so this runs them through Triton's JIT) against the API (the forward kernels'
# packed tiles). Here "api_prev" is the patched side: variants.SWAP_DECODE_MAX_GROUP = 16.
G16 = ([(b, 64, 4, 1, sk, d, False) for d in (128, 64) for sk in (4096, 16384) for b in (1, 4, 16, 40)] +
       [(b, 128, 8, 1, sk, 128, False) for sk in (4096, 16384) for b in (1, 8, 32)])
# --set s66c (call 9): G16's cells through the API with groups of 9-16 on the NQ = 16 builds (variants.SWAP_DECODE_NQ16_KERNELS;
# those whose rule gives the merged build stay on the forward kernels) against the rule before (api_prev:
# SWAP_DECODE_MAX_GROUP = 8). (Since that change g16 / g16b's patched side is the API itself.)
# --set g16b (call 8): G16's cells whose NQ = 16 swap build fits shared memory (call 7: the merged build at NQ = 16 asks
# 264,192 bytes): the split merge (16+ parts) and the stream kernel's builds
G16B = [(1, 64, 4, 1, 4096, 128, False), (1, 64, 4, 1, 16384, 128, False), (40, 64, 4, 1, 4096, 128, False),
        (40, 64, 4, 1, 16384, 128, False), (1, 64, 4, 1, 4096, 64, False), (1, 64, 4, 1, 16384, 64, False),
        (40, 64, 4, 1, 4096, 64, False), (40, 64, 4, 1, 16384, 64, False), (1, 128, 8, 1, 4096, 128, False),
        (1, 128, 8, 1, 16384, 128, False)]

# --set s67 (session 67): groups of 9-16 where the rule gives the merged build, now on its NQ = 16 form at half the staged
# parts (variants.swap_decode_merge_build), against the rule before (api_prev: SWAP_DECODE_NQ16_KERNELS without it: the
# forward kernels' packed tiles): 16 pairs x 8 parts, 8 pairs' 11 parts at 4,097 keys, 32 pairs x 4, the fill's counts
S67 = ([(4, 64, 4, 1, sk, d, False) for d in (128, 64) for sk in (1024, 4096, 16384)] +
       [(1, 128, 8, 1, 4097, d, False) for d in (128, 64)] + [(8, 64, 4, 1, 4096, d, False) for d in (128, 64)] +
       [(2, 128, 8, 1, 2048, d, False) for d in (128, 64)] + [(5, 64, 4, 1, 4096, d, False) for d in (128, 64)] +
       [(7, 64, 4, 1, 1031, d, False) for d in (128, 64)] + [(3, 64, 4, 1, 16384, 64, False),
                                                              (2, 128, 8, 1, 16384, 128, False)])


def _whole64(head_dim, batch, heads, kv_heads, seq_k, sm_count):
    """Session 64's variants.swap_decode_whole (its spread last: 2 x the SMs' programs up to 8 x the SMs' pairs, the
    balanced count up to 12 x, D=128 only, where no other branch nor the stream build took the call), for s65's
    api_prev."""
    group, pairs = heads // kv_heads, batch * kv_heads
    if not variants.SWAP_DECODE or head_dim not in variants.SWAP_DECODE_WHOLE or \
            not 2 <= group <= variants.SWAP_DECODE_MAX_GROUP:
        return 0
    least, every = variants.SWAP_DECODE_WHOLE_KEYS[head_dim]
    lo, hi, most = 1.2, 1.55, 8192  # (session 64's SWAP_DECODE_WHOLE_BAND)
    if pairs <= sm_count or seq_k < least:
        return 0
    n_prog = 0
    keys, most_k, lo_k = variants.SWAP_DECODE_WHOLE_K.get(head_dim, (0, 0, 0.0))
    if pairs <= variants.SWAP_DECODE_WHOLE_MOST[head_dim] * sm_count and (
            seq_k <= every or (seq_k <= most and lo * sm_count < pairs <= hi * sm_count)):
        n_prog = pairs
    elif seq_k <= keys:
        n_prog = next((pairs // k for k in range(2, most_k + 1)
                       if pairs % k == 0 and lo_k * sm_count < pairs // k <= hi * sm_count), 0)
    if not n_prog and head_dim == 128 and 1024 <= seq_k <= 2048 and \
            variants.SWAP_DECODE_WHOLE_MOST[head_dim] * sm_count < pairs <= 12 * sm_count and \
            not variants.swap_decode_stream(head_dim, batch, heads, kv_heads, seq_k, sm_count):
        n_prog = min(pairs, 2 * sm_count)
        if pairs > 8 * sm_count:
            k = -(-pairs // n_prog)
            n_prog = -(-pairs // k)
    blocks = pairs * -(-seq_k // variants.SWAP_DECODE_WHOLE[head_dim].block_n)
    return n_prog if n_prog and variants.stream_schedule_fits(n_prog, blocks) else 0


# --set pull51 (session 51 call 2): the API with the one-cluster meetings in one exchange (sm90_fwd CL_PULL_DEFAULT, on in
# call 2) against the same rule with the trees of levels (X16's cases); with the default off, "api_prev" is the exchange

# --set fold48 (session 48 call 12): dispatch.SPLIT_KV_FULL_AS_CAUSAL (non-causal split-KV calls run their causal
# binary with the diagonal past every key, session 27) against each call on its own non-causal binary ("api_prev" here
# is the API with the fold off): call 11 read the API at (1,8,512,128) 8.14 us against 7.46 for the non-causal build
FOLD48 = [(1, 32, 8, 1, 4096, 128, False), (1, 32, 8, 1, 1024, 128, False), (1, 32, 8, 1, 4096, 64, False),
          (1, 8, 8, 512, 512, 128, False), (1, 8, 8, 512, 512, 64, False), (4, 32, 1, 1, 8192, 128, False)]


def api_fn(q, k, v, causal):
    return dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=k.shape[1] != q.shape[1])


def api_prev(which="calls3"):
    if which == "fewrows":
        return patched_call(api_fn, variants, "FEW_ROWS_FILL", False)
    if which == "fold48":
        from dhpfa.kernels import dispatch
        return patched_call(api_fn, dispatch, "SPLIT_KV_FULL_AS_CAUSAL", False, clear_launchers=True)
    if which == "octs49d64":  # (call 7) the D=64 cases, against the rule without 32 / 64 parts as clusters of eight
        return patched_call(api_fn, variants, "SM90_FEW_PROGRAMS_CL8_TREE",
                            {p: t for p, t in variants.SM90_FEW_PROGRAMS_CL8_TREE.items() if p <= 16})
    if which == "x16":  # session 49's rule: its tables of clusters of eight and four (session 50 trimmed them)
        dims = (64, 96, 128)
        cl8 = {p: variants._cluster_tables(128, 2, parts=p, dims=dims, cluster=8) for p in (8, 16, 32, 64)}
        cl4 = {p: variants._cluster_tables(128, 2, parts=p, dims=dims if p < 16 else (96, 128), cluster=4)
               for p in (4, 8, 16)}
        fn = patched_call(api_fn, variants, "SM90_FEW_PROGRAMS_CL16_TREE", {})
        fn = patched_call(patched_call(fn, variants, "SM90_FEW_PROGRAMS_CL8_TREE", cl8), variants,
                          "SM90_FEW_PROGRAMS_CL4_TREE", cl4)
        return patched_call(fn, variants, "FEW_ROWS_SPLIT_KV",
                            {p: t for p, t in variants.FEW_ROWS_SPLIT_KV.items() if p != 16})
    if which == "s67":  # (no NQ = 16 merged build: the forward kernels)
        return patched_call(api_fn, variants, "SWAP_DECODE_NQ16_KERNELS",
                            tuple(k for k in variants.SWAP_DECODE_NQ16_KERNELS if k != variants.SWAP_DECODE_MERGED_KERNEL))
    if which == "s66c":  # (the rule before groups of 9-16: the forward kernels' packed tiles)
        return patched_call(api_fn, variants, "SWAP_DECODE_MAX_GROUP", 8)
    if which in ("g16", "g16b"):  # (the patched side: groups of 16 on the swap kernels, NQ = 16)
        return patched_call(api_fn, variants, "SWAP_DECODE_MAX_GROUP", 16)
    if which == "s66b":  # (no balanced count past 12x the SMs' pairs)
        return patched_call(api_fn, variants, "SWAP_DECODE_WHOLE_SPREAD_MORE", {})
    if which == "s66":  # (groups of one on the forward kernels)
        return patched_call(api_fn, variants, "SWAP_DECODE_MIN_GROUP", 2)
    if which == "s65":  # (session 64's whole-pair rule and one-wave tiers)
        fn = patched_call(api_fn, variants, "swap_decode_whole", _whole64)
        return patched_call(fn, variants, "SWAP_DECODE_ONE", {128: ((768, 3072, 0.5, 0.67), (1024, 1536, 0.5, 1.0),
                                                                    (1024, 3072, 0.95, 1.0)),
                                                              64: variants.SWAP_DECODE_ONE[64]})
    if which == "s65b":  # (call 3's rule: D=64's band to 8,192 keys, its spread to 16,384)
        fn = patched_call(api_fn, variants, "SWAP_DECODE_WHOLE_BAND", {**variants.SWAP_DECODE_WHOLE_BAND,
                                                                       64: (1.2, 1.55, 8192)})
        return patched_call(fn, variants, "SWAP_DECODE_WHOLE_SPREAD", {**variants.SWAP_DECODE_WHOLE_SPREAD,
                                                                       64: (1024, 16384, 2.0, 1.0, 10.0, 0.75)})
    if which == "s65c":  # (call 5's rule: D=128's spread to 2,048 keys, D=64's band and spread to 32,768)
        fn = patched_call(api_fn, variants, "SWAP_DECODE_WHOLE_BAND", {**variants.SWAP_DECODE_WHOLE_BAND,
                                                                       64: (1.2, 1.55, 32768)})
        return patched_call(fn, variants, "SWAP_DECODE_WHOLE_SPREAD", {128: (1024, 2048, 2.0, 3.0, 12.0, 0.0),
                                                                       64: (1024, 32768, 2.0, 1.0, 10.0, 0.75)})
    if which == "s64c":  # (its api_prev patched session 64's SWAP_DECODE_WHOLE_SPREAD, of another form since session 65)
        raise SystemExit("--set s64c: its api_prev needs session 64's SWAP_DECODE_WHOLE_SPREAD; run it at commit 3006548")
    if which == "s64b":  # (the whole builds' flat schedule: no PAIR_UNITS, no spread)
        return patched_call(api_fn, variants, "SWAP_DECODE_WHOLE_UNITS", False, clear_launchers=True)
    if which == "s64":  # (no one-wave tiers: the forward kernels)
        return patched_call(api_fn, variants, "SWAP_DECODE_ONE", {})
    if which in ("s63", "s63b", "s63c", "s63d"):  # (no whole-pair build: neither a program a pair nor k pairs a program)
        fn = patched_call(api_fn, variants, "SWAP_DECODE_WHOLE_MOST", {128: 0.0, 64: 0.0})
        return patched_call(fn, variants, "SWAP_DECODE_WHOLE_K", {})
    if which in ("s61", "s61b", "s61c", "s62"):  # (their rules before patched variants.SWAP_DECODE_OVER, now gone)
        raise SystemExit(f"--set {which}: its api_prev needs session 61's SWAP_DECODE_OVER; run it at commit 4ced3db")
    if which == "s60b":
        fn = patched_call(api_fn, variants, "SWAP_DECODE_FILL", {64: ((48, 1024, None),), 128: ((24, 1024, 4096),)})
        return patched_call(fn, variants, "SWAP_DECODE_LEAST_KEYS",
                            {k: v for k, v in variants.SWAP_DECODE_LEAST_KEYS.items() if k != (64, 32)})
    if which == "s60":
        return patched_call(api_fn, variants, "SWAP_DECODE_EVEN", False, clear_launchers=True)
    if which == "s59c":
        return patched_call(api_fn, variants, "SWAP_DECODE_FILL", {})
    if which == "s59b":
        fn = patched_call(api_fn, variants, "SWAP_DECODE_PARTS", {128: (16, 8), 64: (32, 16, 8)})
        return patched_call(fn, variants, "SWAP_DECODE_LEAST_KEYS", {(64, 8): 4096})
    if which == "s59":
        return patched_call(api_fn, variants, "SWAP_DECODE_PARTS", {128: (16, 8), 64: (32, 16, 8)})
    if which == "s58":
        fn = patched_call(api_fn, variants, "SWAP_DECODE_SPLIT", {}, clear_launchers=True)
        return patched_call(fn, variants, "SWAP_DECODE_MERGE_WIDE", {64: False, 128: False}, clear_launchers=True)
    if which == "s57":
        fn = patched_call(api_fn, variants, "SWAP_DECODE_MERGE_PARTS", {64: 32, 128: 32}, clear_launchers=True)
        fn = patched_call(fn, variants, "SWAP_DECODE_MERGE_ASYNC", {64: False, 128: False}, clear_launchers=True)
        return patched_call(fn, variants, "SWAP_DECODE_MERGE_PREFETCH", {64: False, 128: False}, clear_launchers=True)
    if which == "s56":
        return patched_call(patched_call(api_fn, variants, "SWAP_DECODE_MERGE_DIMS", (128,)), variants,
                            "SWAP_DECODE_TWO_PAIRS", {})
    if which == "s56b":
        return patched_call(api_fn, variants, "SWAP_DECODE_TWO_PAIRS", {128: variants.SWAP_DECODE_TWO_PAIRS[128]})
    if which == "merge55":  # the swap path with its parts merged in the launch (SWAP_DECODE_MERGE) flipped
        return patched_call(api_fn, variants, "SWAP_DECODE_MERGE", not variants.SWAP_DECODE_MERGE)
    if which == "swap54":  # the switch flipped: with it on (calls 7 and 9) the forward kernels' packed decode tiles; with
        # it off (the default since session 54's end) the swapped-GEMM decode kernel
        return patched_call(api_fn, variants, "SWAP_DECODE", not variants.SWAP_DECODE)
    if which == "pull53":  # session 52's rule and kernels: no 32 / 64-part few-row rule, the tree above one cluster
        from dhpfa.kernels import sm90_fwd
        return patched_call(patched_call(api_fn, variants, "FEW_ROWS_PULL_SPLIT", {}), sm90_fwd, "CL_PULL_CLUSTERS",
                            (1,), clear_launchers=True)
    if which in ("pull51", "pull52"):  # the one-cluster meetings in the other form than CL_PULL_DEFAULT's (call 2 ran it on: there
        from dhpfa.kernels import sm90_fwd  # api_prev was the tree of levels; with it off, api_prev is the exchange)
        return patched_call(api_fn, sm90_fwd, "CL_PULL_DEFAULT", not sm90_fwd.CL_PULL_DEFAULT, clear_launchers=True)
    if which == "octs49":
        return patched_call(patched_call(api_fn, variants, "SM90_FEW_PROGRAMS_CL8_TREE", {}), variants,
                            "FEW_ROWS_SPLIT_KV", {8: (2048, 1, (64,)), 4: (1024, 2, (64, 96, 128))})
    if which == "quads48":
        return patched_call(api_fn, variants, "SM90_FEW_PROGRAMS_CL4_TREE", {})
    if which == "fewrows48":
        return patched_call(api_fn, variants, "FEW_ROWS_SPLIT_KV", {})
    if which == "cltree":
        return patched_call(api_fn, variants, "SM90_FEW_PROGRAMS_CL_TREE", {})
    if which == "packed":
        return patched_call(api_fn, variants, "PACKED_SPLIT_KV_SHARE", False)
    if which == "causalmid":
        return patched_call(api_fn, variants, "FEW_PROGRAMS_CAUSAL_SHORT", ())
    return patched_call(patched_call(api_fn, variants, "SPLIT_KV_ALL_SMS_MAX_D", 0), variants, "SM90_LONG_FILL_X2", {})


def extra_fns(b, h, sq, d, causal=False):
    """The 64-row builds beside the API for one-query calls at D=128: the short tiles (SM90_SHORT) and the one-consumer
    64x128 Gluon tiles (SM90_FEW_PROGRAMS_MID)."""
    from small_tiles import variant_fn
    if causal and d == 128:  # (call 7)
        builds = {"short": variants.SM90_SHORT[d], "sk": variants.SM90_FEW_PROGRAMS_CAUSAL_2X[d]}
        return {n: variant_fn(variants.Variant(*kc, torch.bfloat16, d, True), (b, h, sq, d)) for n, kc in builds.items()}
    if sq != 1 or d != 128:
        return {}
    builds = {"short": variants.SM90_SHORT[d], "mid": variants.SM90_FEW_PROGRAMS_MID[(d, False)]}
    return {n: variant_fn(variants.Variant(*kc, torch.bfloat16, d, False), (b, h, sq, d)) for n, kc in builds.items()}


def reference(q, k, v, causal=False):
    """Attention in float64 on the GPU, grouped heads without repeating K/V: (B, H, S_q, D); causal: top-left (SDPA's
    is_causal)."""
    b, h, sq, d = q.shape
    hk = k.shape[1]
    qg = q.double().view(b, hk, h // hk * sq, d)
    s = torch.einsum("bkqd,bksd->bkqs", qg, k.double()) / math.sqrt(d)
    if causal:
        pos = torch.arange(h // hk * sq, device=q.device) % sq
        s = s.masked_fill(torch.arange(k.shape[2], device=q.device)[None, :] > pos[:, None], float("-inf"))
    return torch.einsum("bkqs,bksd->bkqd", torch.softmax(s, -1), v.double()).view(b, h, sq, d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--set", default="calls3", choices=("calls3", "fewrows", "causalmid", "packed", "cltree",
                                                                  "fewrows48", "quads48", "fold48", "octs49", "octs49d64", "x16",
                                                                  "pull51", "pull52", "pull53", "swap54", "merge55", "s56", "s56b", "s57", "s58", "s59", "s59b", "s59c", "s60", "s60b", "s61", "s61b", "s61c", "s62", "s63", "s63b", "s63c", "s63d", "s64", "s64b", "s64c", "s65", "s65b", "s65c", "s66", "s66b", "g16", "g16b", "s66c", "s67"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows, ok = [], True
    for b, h, hk, sq, sk, d, causal in {"fewrows": FEWROWS, "causalmid": CAUSALMID, "packed": PACKED, "cltree": CLTREE,
                                     "fewrows48": FEWROWS48, "quads48": QUADS48,
                                     "fold48": FOLD48, "octs49": OCTS49,
                                     "octs49d64": OCTS49[-4:], "x16": X16, "pull51": X16, "pull52": PULL52, "pull53": PULL53,
                                     "swap54": SWAP54, "merge55": MERGE55, "s56": S56, "s56b": S56B, "s57": S57,
                                     "s58": S58, "s59": S59, "s59b": S59B, "s59c": S59C, "s60": S60, "s60b": S60B, "s61": S61, "s61b": S61B, "s61c": S61C, "s62": S62, "s63": S63, "s63b": S63B, "s63c": S63C, "s63d": S63D, "s64": S64, "s64b": S64B, "s64c": S64C, "s65": S65, "s65b": S65B, "s65c": S65C, "s66": S66, "s66b": S66B, "g16": G16, "g16b": G16B, "s66c": G16, "s67": S67}.get(args.set, CASES):
        g = torch.Generator(device="cuda").manual_seed(b * h + hk + sq + sk + d)
        sets = [(torch.randn(b, h, sq, d, device="cuda", dtype=torch.bfloat16, generator=g),
                 torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g),
                 torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g)) for _ in range(3)]
        chosen = {}
        for name, fn in (("api_prev", api_prev(args.set)), ("api", api_fn)):
            api._PLANS.clear()
            small_tiles.PATCHED_VARIANTS[:] = []
            out = fn(*sets[0], causal).double()
            chosen[name] = ";".join(sorted({p.variant.name for p in api._PLANS.values() if p.variant is not None})
                                    if name == "api" else small_tiles.PATCHED_VARIANTS)
            ref = reference(*sets[0], causal)
            err = ((out - ref).norm() / ref.norm()).item()
            ok &= err < 1e-2 and bool(torch.isfinite(out).all())
            chosen[name + "_rel_err"] = err
        api._PLANS.clear()
        kernels = {"api": api_fn, "api_prev": api_prev(args.set),
                   "sdpa_cudnn": bench.peer_kernels(gqa=hk != h)["sdpa_cudnn"],
                   **(extra_fns(b, h, sq, d, causal) if args.set not in ("s62", "s65", "s65b", "s65c", "s66", "s66b", "g16", "g16b", "s66c", "s67") else {})}  # (s62, s65*: 400+ pairs)
        errors = {}
        times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, graph=True, batch_ms=5.0, errors=errors)
        us = {n: statistics.median(t) * 1000 for n, t in times.items()}
        x = {n: statistics.median(a / c for a, c in zip(times["api"], t)) for n, t in times.items()}
        rows.append(dict(case=[b, h, hk, sq, sk, d, causal], us=us, speedup_vs_api=x, errors=errors, **chosen))
        same = " (same variant)" if chosen["api"] == chosen["api_prev"] else ""
        print(f"{(b, h, hk, sq, sk, d)}: " + "  ".join(f"{n}={u:.2f}us(x{x[n]:.3f})" for n, u in us.items()) +
              f"  err {chosen['api_rel_err']:.1e}  [{chosen['api'].split('-')[-1]} <- "
              f"{chosen['api_prev'].split('-')[-1]}]{same}", flush=True)
        with open(os.path.join(args.out, f"rule_check_{args.set}.json"), "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), rows=rows, correct=ok), f, indent=1)
    print("correctness:", "all OK" if ok else "FAILURES", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
