"""The one list of shipped kernel variants.

The API dispatches only to variants listed here; the auditor compiles and checks every one of them; the
GPU tests and benchmarks iterate over the same list. A variant fixes everything that changes the binary:
dtype, head dim, causal flag and tile configuration (the integer shape arguments are not specialised).
It also declares which kernel arguments are secret: the auditor reads this instead of guessing.
"""
from dataclasses import dataclass, field, replace

import torch

HEAD_DIMS = (32, 64, 96, 128, 192, 256)
DTYPES = (torch.float16, torch.bfloat16)


@dataclass(frozen=True)
class TileConfig:
    block_m: int
    block_n: int
    num_warps: int
    num_stages: int
    split: int = 1          # Gluon kernel: consumer warpgroup partitions (block_m / split rows each)
    pingpong: bool = False  # Gluon kernel: consumers take turns issuing their GEMMs
    persistent: bool = False  # Gluon kernel: one program per SM over the static schedule
    split_k: bool = False   # Gluon kernel, split=2: both consumers on one block_m-row tile, alternate key blocks
    q_double: bool = False  # Gluon kernel, persistent: two Q buffers, the next tile's Q loaded during this one
    defer_store: bool = False  # Gluon kernel, O in its own buffer: a tile's O store waited for at the next epilogue
    split_kv: int = 0  # Gluon kernel, split=1, not persistent: 2-64 programs per tile, a part of the key blocks each
    pv_overlap: bool = False  # Gluon kernel: each softmax runs while the previous block's PV GEMM is in flight
    unpaired: bool = False  # Gluon kernel, split_k, causal: one tile per work unit (not a heavy and a light tile)
    pack: int = 0  # Gluon kernel, split_kv: tiles of grouped query heads in slots of `pack` rows (pack_heads)
    balance: bool = False  # Gluon kernel, split=2, causal with skip_masked: consumers exchange row halves (BALANCE)
    o_regs: bool = False  # Gluon kernel, split=2, persistent: O stored from registers in 16-byte stores (O_REG 2)
    v_stage: bool = False  # Gluon kernel, split=2, causal with skip_masked: consumer 1's O staged in a V slot (V_STAGE)
    o_half: bool = False  # ... with v_stage: consumer 0's O in a buffer of its own, its store waited for later (O_HALF)
    light_first: bool = False  # Gluon kernel, split=2, causal paired units: each unit's light tile first (LIGHT_FIRST)
    cluster: bool = False  # Gluon kernel, split_kv: pairs of a tile's programs as clusters of two CTAs (CLUSTER); 4:
    # each four as one cluster of four (CLUSTER_N = 4, split_kv >= 4; session 48); 8: of eight (session 49); 16: of
    # sixteen (session 50)
    maxnreg: int = 0  # Gluon kernel: ptxas's register limit per thread at launch (0: none; 128: two CTAs an SM)

    def label(self) -> str:
        extra = f"x{self.split}" + ("pp" if self.pingpong else "") + ("sk" if self.split_k else "") \
            if self.split > 1 else ""
        return f"m{self.block_m}n{self.block_n}w{self.num_warps}s{self.num_stages}{extra}" + \
            ("qd" if self.q_double else "") + ("ds" if self.defer_store else "") + \
            (f"kv{self.split_kv}" if self.split_kv else "") + \
            ("ov" if self.pv_overlap else "") + ("up" if self.unpaired else "") + \
            (f"pk{self.pack}" if self.pack else "") + ("bal" if self.balance else "") + \
            ("or" if self.o_regs else "") + ("vs" if self.v_stage else "") + ("oh" if self.o_half else "") + \
            ("lf" if self.light_first else "") + ("cl" if self.cluster else "") + \
            (str(self.cluster) if self.cluster in (4, 8, 16) else "") + \
            (f"r{self.maxnreg}" if self.maxnreg else "") + \
            ("-persistent" if self.persistent else "")


def cluster_parts(cluster) -> int:
    """The parts of a split one cluster holds (TileConfig.cluster: False, True (pairs), 4, 8 or 16): a
    split of no more parts meets in shared memory only; with more, its clusters' states meet in the workspace too
    (sm90_fwd CL_TREE)."""
    return int(cluster) if cluster in (4, 8, 16) else 2 if cluster else 1


TRITON_KERNELS = ("attn_fwd", "attn_fwd_tma")  # portable: also run in the CPU interpreter
KERNELS = TRITON_KERNELS + ("attn_fwd_sm90_ws",)
GLUON_KERNELS = ("attn_fwd_sm90_ws",)
# The kernels that move q, k, v and O through TMA descriptors only (no 32-bit element offsets: api.OFFSET_LIMIT).
DESCRIPTOR_KERNELS = ("attn_fwd_tma",) + GLUON_KERNELS

# Hopper defaults per head dim: (kernel, tiles). Chosen from device measurements; docs/perf-log.md.
SM90_DEFAULTS = {
    32: ("attn_fwd", TileConfig(128, 64, 8, 3)),
    64: ("attn_fwd", TileConfig(128, 64, 8, 3)),
    96: ("attn_fwd_tma", TileConfig(128, 128, 8, 3)),
    128: ("attn_fwd", TileConfig(128, 128, 8, 3)),
    192: ("attn_fwd_tma", TileConfig(128, 64, 8, 3)),
    256: ("attn_fwd_tma", TileConfig(128, 64, 8, 3)),
}
# 64-row tiles with one warpgroup: two CTAs share an SM and the pipeline fills within few KV blocks. They
# win for short key sequences, and for causal attention (shorter average KV loop) up to 8K, at D >= 192 at
# every length. Device runs 3, 5 and 6 (docs/perf-log.md).
SHORT_SEQ_K = 4096
SHORT_SEQ_K_CAUSAL = 8192
SM90_SHORT = {
    32: ("attn_fwd_tma", TileConfig(64, 64, 4, 3)),
    64: ("attn_fwd_tma", TileConfig(64, 64, 4, 3)),
    96: ("attn_fwd_tma", TileConfig(64, 64, 4, 3)),
    128: ("attn_fwd_tma", TileConfig(64, 64, 4, 3)),
    192: ("attn_fwd_tma", TileConfig(64, 32, 4, 3)),
    256: ("attn_fwd_tma", TileConfig(64, 32, 4, 3)),
}
# Hopper-native Gluon kernel (kernels/sm90_fwd.py: TMA producer warp, two ping-pong consumer warpgroups
# with softmax/GEMM overlap, static tile schedule). Chosen on sm_90 for these head dims (docs/perf-log.md,
# runs 14-17 and session 3 run 20): D=128 600-619 TFLOPS vs 519-526 for the Triton kernel, D=256 685-761 vs
# 521-562. Persistent (one program per SM): at D=128 +18% at S=512, +11% at S=1K, equal from 2K on (run 20);
# at D=256 x1.01-1.04 where the tuner timed it (session 3 run 21: 1K, 4K, 16K; session 4 run 4: 512, 1K).
_GLUON_N128S2 = ("attn_fwd_sm90_ws", TileConfig(128, 128, 4, 2, split=2, pingpong=True, persistent=True))
# (n64s3 with balance: on a causal unit's second tile the two consumers exchange row halves, sm90_fwd BALANCE, so each
# computes the lower half of one tile and the upper of the other rather than consumer 1 both upper halves, which have
# one more 64-key block each. Session 37 (H100, ab_sm90.py, graph replay, against the same build without it): D=128
# causal 512 x1.017 (11 rounds) and x1.013 (25 rounds), causal 1K x1.017 (not this build's cell through the API); at
# D=256 (n64s2) causal 512-16K x0.98-1.02 over 8 cells: not there. Non-causal calls of this build run without it.)
_GLUON_N64S3 = ("attn_fwd_sm90_ws", TileConfig(128, 64, 4, 3, split=2, pingpong=True, persistent=True, balance=True))
_GLUON_N64S2 = ("attn_fwd_sm90_ws", TileConfig(128, 64, 4, 2, split=2, pingpong=True, persistent=True))
_GLUON_N128S3 = ("attn_fwd_sm90_ws", TileConfig(128, 128, 4, 3, split=2, pingpong=True, persistent=True))
SM90_GLUON = {128: _GLUON_N128S2, 256: _GLUON_N64S2}
# ... and for non-causal calls at D=256 (and 192) with O stored from the consumers' registers (sm90_fwd O_REG 2), so the
# next tile's Q loads once this tile's last QK^T has completed instead of after O's store has read it from Q's tile
# (no room for an O buffer beside two 64-key stages at D=256). Session 39 (H100, ab_sm90.py, against n64s2 in the same
# rounds; docs/perf-log.md): 512 x1.05, 2K x1.05, 4K x1.03, 16K x1.01; causal calls lost (512 x0.96): V_STAGE below.
_GLUON_N64S2_OR = ("attn_fwd_sm90_ws", TileConfig(128, 64, 4, 2, split=2, pingpong=True, persistent=True, o_regs=True))
# ... and for causal calls at D=256 (and 192) with the second consumer's O staged in the V slot of its last key block
# where that block is its alone (sm90_fwd V_STAGE; on a causal diagonal tile its rows see one 64-key block more than
# the first consumer's), so that consumer releases Q after its last QK^T rather than after O's store. Session 39 call 9
# (H100, 7 rounds, against n64s2 in the same rounds): causal 512 x1.005, 1K x1.049, 2K x1.016, 16K x1.011. Session 40:
# with the first consumer's O in a 32 KB buffer of its own (sm90_fwd O_HALF; it fits beside Q and two 64-key stages),
# stored by TMA and waited for only before the buffer's next write, so Q is released after both consumers' last QK^T
# (call 7, H100, 15 rounds, against the V_STAGE build alone: causal 512 x0.997, 1K x1.035, 2K x1.022, 4K x1.024). And
# each causal unit's light tile first (sm90_fwd LIGHT_FIRST): heavy first, the light tile re-read its keys a whole tile
# later, from DRAM where L2 had dropped them (ncu, (32,8,512,256) causal: 259.7 MB read against Q, K and V's 201 MB;
# light first 216.6 MB and 119.2 -> 109.5 us); call 12 (15 rounds, graph replay): causal 512 x1.089 (314 TFLOPS against
# cuDNN's 321), 1K x1.012, 2K x0.998. At D=128 causal 512 (no excess reads there) it read x0.976: not used there.
_GLUON_N64S2_VSOHLF = ("attn_fwd_sm90_ws", TileConfig(128, 64, 4, 2, split=2, pingpong=True, persistent=True,
                                                     v_stage=True, o_half=True, light_first=True))
# seq_k > GLUON_SHORT_SEQ_K, where these take SM90_GLUON's place: (head dim, causal) -> build
SM90_GLUON_BY_CAUSAL = {(256, False): _GLUON_N64S2_OR, (256, True): _GLUON_N64S2_VSOHLF}
# ... with two Q buffers (sm90_fwd Q_DOUBLE: the next tile's Q loads during this tile, not after its last QK^T),
# for GLUON_SHORT_SEQ_K < seq_k <= GLUON_QD_MAX_SEQ_K (and the short non-causal class below). Session 9 runs 7
# and 11 (random-order A/B against n128s2, 12-15 rounds): D=128 S=512 x1.069, 1K x1.061, 2K x1.026, 4K x1.028,
# 8K x1.022, 16K x0.994 / x0.995 / x0.989; causal 512 x1.007, 1K x1.016, 2K x1.040, 4K x1.021, 8K x1.018, 16K
# x1.002 / x1.020; runs 10 and 14: B=1 S=128K x0.926 / x0.933 (32K x0.994). At D=128 S <= 512 causal (n64s3)
# it lost (x0.924), and at D=64 (three consumers) it read x0.995-1.018: those stay as they were.
_GLUON_N128S2_QD = ("attn_fwd_sm90_ws", TileConfig(128, 128, 4, 2, split=2, pingpong=True, persistent=True,
                                                   q_double=True))
SM90_GLUON_QD = {128: _GLUON_N128S2_QD}
GLUON_QD_MAX_SEQ_K = 8192
# seq_k <= GLUON_SHORT_SEQ_K. Session 4 run 4 (`dhpfa tune`, host time no longer setting the pace): D=128
# causal 64-key blocks with 3 stages x1.22 over 128-key blocks; D=256 causal Gluon x1.09 over the 64-row
# Triton tiles (the earlier opposite reading, run 20, was host-bound).
GLUON_SHORT_SEQ_K = 512
# ... and non-causal at D=128 with the O store waited for at the next tile's epilogue, not at once (sm90_fwd
# DEFER_STORE). Session 10, CUDA-graph replay, random-order rounds against _GLUON_N128S2_QD: S=512 x1.051 (run 6,
# 12 rounds), x1.034 (run 7, 15 rounds), x1.047 (run 8, 15 rounds). At 1K / 2K x0.998 / x0.999 and x1.034, causal
# 512 x0.996 / x0.996 / x0.985, 1K x0.975, 2K x0.982 / x1.032 (session 8, eager: causal 1K x0.972): no consistent
# gain there (identical binaries read up to 2.3% apart in one run), so only here.
_GLUON_N128S2_QD_DS = ("attn_fwd_sm90_ws", TileConfig(128, 128, 4, 2, split=2, pingpong=True, persistent=True,
                                                      q_double=True, defer_store=True))
SM90_GLUON_SHORT = {
    (128, False): _GLUON_N128S2_QD_DS,
    (128, True): _GLUON_N64S3,
    (256, False): _GLUON_N64S2_OR,
    (256, True): _GLUON_N64S2_VSOHLF,
}
# D=64 past the short-tile lengths (seq_k > SHORT_SEQ_K, causal > SHORT_SEQ_K_CAUSAL; since session 26 from shorter
# lengths, below): the Gluon kernel
# with three consumer warpgroups (192-row tiles, 128-key blocks, 2 stages) that issue their GEMMs without
# taking turns. Session 6 run 2 (random order per round, 15 rounds): x1.106 / x1.121 over the API's
# choice before it (the two-consumer n128s2) at 8K / 16K, causal 16K x1.044; with turns x1.09 / x1.01.
_GLUON_X3 = ("attn_fwd_sm90_ws", TileConfig(192, 128, 4, 2, split=3, pingpong=False, persistent=True))
SM90_GLUON_LONG = {64: _GLUON_X3}
# ... from these lengths on (seq_k > GLUON_LONG_SEQ_K[causal]; use_long_tiles), below the short tiles' lengths too since
# its row sums run on the tensor cores (sm90_fwd.L_MMA, session 25). Session 26 run 1 (scripts/ab_sm90.py, 16K-token
# grid, graph replay up to 2K, 11 interleaved rounds, against the API's Triton 64-row tiles): non-causal 2K x1.084 (467
# TFLOPS against 432; cuDNN 426), 4K x1.117 (491 / 439; cuDNN 441), but 1K x0.946 and 512 x0.876 (192-row tiles waste
# an eighth of a 512- or 1024-query head); causal 8K x1.055 (447 / 422; cuDNN 416), 4K x0.984, 2K x0.79.
GLUON_LONG_SEQ_K = {False: 1024, True: 4096}
# Calls of at most this many queries per head whose keys are in that band (the long-sequence build from these lengths,
# the short tiles before session 26) keep the short tiles (few_rows_variant): measured only with seq_q = seq_k, where
# the 192-row tiles lost at 1K queries.
GLUON_LONG_MIN_SEQ_Q = 1024
# ... but the 128-row two-consumer build where long_tiles_fill's model, the 192-row build left out, prefers it to the
# short tiles (few_rows_variant; session 46): (1,32,512) x 4,096 keys at D=64 is 128 tiles of 128 rows, one wave, or 256
# short tiles, two on most SMs (peer_sweep wide2, call 4: the short tiles 49.0 us, cuDNN 43.6). Call 5 (H100, graph
# replay, 11 rounds, us, with / without / cuDNN): (1,32,512) x 4,096 keys 42.83 / 49.49 / 42.89, (4,8,512) x 2,048 23.57
# / 26.83 / 24.26, (1,16,1024) x 2,048 22.79 / 25.95 / 24.00, (8,8,256) x 4,096 42.19 / 48.93 / 42.80; where the model
# keeps the short tiles, (2,16,1024) x 4,096, (1,64,512) x 2,048, (2,32,1024) x 3,072, (1,24,1024) x 4,096, the same.
FEW_ROWS_FILL = True
# Grids of at most one program per SM at the short tiles' 64 rows (B * H * ceil(Sq / 64) <= SM count, as
# (1, 8, 512, D): 64 programs on 132 SMs), where the short tiles would run. Keyed by (head dim, causal).
# D=64: the short tiles with pointer loads instead of TMA. Session 6 run 4 (CUDA-graph replay, random order
# per round): (1,8,512,64) 6.55 us against 7.36 us with TMA (x1.18 over the API before it; causal x1.16); at
# (4,16,1024,64), 1,024 programs, TMA stays ahead by 2%.
# D=128 / 256: 64-row tiles instead of the Gluon kernel's 128-row persistent tiles (half the programs).
# Session 7 run 1 (same method, (1,8,512,D)): non-causal, the Gluon kernel with one consumer warpgroup,
# D=128 8.38 us (x1.27 over the API before it; TMA short tiles 8.62), D=256 11.54 us (x1.33; TMA short
# tiles 13.53); causal, the TMA short tiles, D=128 8.84 us (x1.65; Gluon 10.08), D=256 13.85 us (x1.56;
# Gluon 14.59). cuDNN: 11.67 / 12.08 / 17.48 / 17.78 us.
# The one-consumer Gluon builds of few-program grids (here and below) run each softmax while the previous key
# block's PV GEMM is in flight (sm90_fwd PV_OVERLAP, TileConfig.pv_overlap: with one consumer warpgroup per SM
# nothing else fills the tensor cores during a softmax; where two or three consumers take turns it lost, session
# 9 run 3). Session 13 (graph replay, interleaved rounds, against the same builds without it): (1,8,512,D) D=64
# x1.008 / x1.010, D=128 x1.028 / x1.024, D=256 x1.026 / x1.026 (runs 1 / 2); 512 queries, 8 heads, D=64: per
# 64-key block 0.423 / 0.414 us against 0.440 / 0.428; two programs per tile at 2,048 keys 12.18 / 12.08 us
# against 12.55 / 12.17 (causal D=128, run 3: x1.007 / x1.025 at 1,024 / 2,048 keys); four programs per tile,
# D=128 4 heads, 8,192 keys 27.94 / 28.11 against 28.36 / 28.42. Not at D=128 below 512 keys (the 64x64 tiles:
# 8.43 against 8.27 us at 512), nor in the split-key build (two consumers on one SM; SM90_FEW_PROGRAMS_LONG):
# x1.03-1.06 at 8 heads, but where the API runs it (16-32 heads, 128-256 programs; run 3) x0.89-0.97, causal and
# not, D=64 and 128.
_FEW_D64 = ("attn_fwd", TileConfig(64, 64, 4, 3))
SM90_FEW_PROGRAMS = {
    (64, False): _FEW_D64,
    (64, True): _FEW_D64,
    (128, False): ("attn_fwd_sm90_ws", TileConfig(64, 64, 4, 3)),
    (128, True): SM90_SHORT[128],
    (256, False): ("attn_fwd_sm90_ws", TileConfig(64, 64, 4, 2, pv_overlap=True)),
    (256, True): SM90_SHORT[256],
}
FEW_PROGRAMS_ROWS = 64
# ... non-causal at D=64 / 128 with FEW_PROGRAMS_MID_SEQ <= seq_k < FEW_PROGRAMS_LONG_SEQ: the Gluon kernel with
# one consumer warpgroup on 64-row tiles and 128-key blocks (4 steps of each program's serial chain at 512 keys
# instead of 8). Session 11, graph replay, against the tiles above: D=64 (1,8,512) 6.39 / 6.40 / 6.37 us against
# 6.63 / 6.69 / 6.58 (runs 2, 2, 4: x1.037 / x1.045 / x1.033); at 256 keys 4.59 against 4.52, at 128 / 64 keys
# 3.68 / 3.85 against 3.47 / 3.01 (the pointer-load tiles stay there). D=128 (1,8,512) 8.11 / 8.18 us against
# 8.50 / 8.55 (runs 3, 4: x1.048 / x1.045), 256 keys 5.79 against 6.04, 128 keys 4.66 / 4.74, 64 keys 4.72 / 4.08.
# Causal x0.73-0.90 (runs 2-5; the Gluon causal grid pairs two tiles per program): not there.
_FEW_X1_N128 = ("attn_fwd_sm90_ws", TileConfig(64, 128, 4, 2, pv_overlap=True))
SM90_FEW_PROGRAMS_MID = {(64, False): _FEW_X1_N128, (128, False): _FEW_X1_N128}
FEW_PROGRAMS_MID_SEQ = 512
# ... and where each of those programs has many key blocks (seq_k >= FEW_PROGRAMS_LONG_SEQ[causal]): at D=64
# and 128 the Gluon kernel with two consumer warpgroups taking alternate key blocks of one 64-row tile
# (SPLIT_K), merged through shared memory; at D=256 causal the Gluon one-consumer tiles. Session 7 runs 10-12
# (graph replay) against the tiles above: D=64 (1,4,1024) x1.09, causal x0.92; (1,4,2048) x1.23 / x1.21,
# causal x1.08 / x1.08; (1,2,4096) x1.33, causal x1.22; (1,8,512), 8 key blocks per program, x0.97, causal
# x0.74. D=128 (1,4,1024) x1.10, causal x0.92; (1,4,2048) x1.17 / causal x1.04; (1,2,4096) x1.25 / x1.20.
# D=256 split keys x0.59-0.74; (1,4,2048,256) causal, one consumer x1.16 over the TMA tiles (at S=512 x0.95).
# Split keys read from a sub-ring of `stages` slots per consumer (4 slots here; session 7 measured one shared
# ring of 3, which raced: sm90_fwd._ws_consumer, session 8 run 2).
# Session 13 (run 6, graph replay, 512 queries, 16 heads: 128 programs) found two things. (1) Causal, the split-key
# build paired a heavy and a light tile per program as the persistent builds do, so half of the SMs sat idle: at
# bottom-right causal 4,096 keys it took 49.08 us (D=64) against 26.96 non-causal. The causal entries now run one
# tile per program (sm90_fwd PAIRED=False, TileConfig.unpaired; the causal grids of up to twice the SMs below keep
# the pairs, which balance their two waves). (2) Past the short-tile lengths variants.select's long-sequence builds
# ran, with 128- or 192-row tiles (48-64 tiles on 132 SMs): split keys there, non-causal, D=64 8,192 / 16,384 keys
# 48.25 / 91.35 us against 108.27 / 206.88 (cuDNN 75.39 / 144.23), D=128 63.37 / 122.05 against 96.94 / 190.74
# (cuDNN 100.31 / 196.72); causal (paired) D=64 16,384 182.25 against 410.74, D=128 8,192 / 16,384 117.78 / 227.05
# against 184.22 / 365.27. So this table applies at every length from FEW_PROGRAMS_LONG_SEQ on, as the splits across
# programs do (for D=256 causal, the short tiles' lengths are every length anyway: use_short_tiles).
_SPLIT_K = ("attn_fwd_sm90_ws", TileConfig(64, 64, 4, 2, split=2, split_k=True))
_SPLIT_K_UNPAIRED = ("attn_fwd_sm90_ws", TileConfig(64, 64, 4, 2, split=2, split_k=True, unpaired=True))
SM90_FEW_PROGRAMS_LONG = {(64, False): _SPLIT_K, (64, True): _SPLIT_K_UNPAIRED, (128, False): _SPLIT_K,
                          (128, True): _SPLIT_K_UNPAIRED, (256, True): SM90_FEW_PROGRAMS[(256, False)]}
FEW_PROGRAMS_LONG_SEQ = {False: 1024, True: 2048}
# ... and, causal or not, where twice the grid still fits the SMs (2 x programs <= SM count) with seq_k >=
# FEW_PROGRAMS_SPLIT_KV_SEQ, at every length: two programs per 64-row tile, each with half of its key blocks, the second to arrive
# combining both states through a per-call workspace (sm90_fwd SPLIT_KV; TileConfig.split_kv), so each tile's chain
# runs on two SMs. Session 12 (graph replay, 512 queries, interleaved rounds) against the split-key build that ran
# there before (SM90_FEW_PROGRAMS_LONG): run 1, D=64, 8 heads (64 tiles): 1,024 keys 9.09 us against 9.85, 2,048
# 12.70 against 15.59; run 2, 4 heads: 8.10 / 9.78, 11.42 / 15.40, 4,096 18.06 / 26.21; D=128, 8 heads: 12.00 /
# 12.38, 16.74 / 19.71, 26.04 / 33.69; causal (1, 2, 2048, D) x1.48 (D=64, 11.70 against 17.35 us) and x1.41 (D=128).
# Run 3, (1, 4, 1024, D) causal: x1.25 at D=64 (8.50 us against 10.65) and D=128 (11.41 against 14.32). Past the
# short-tile lengths, where variants.select's long-sequence builds ran (4 heads, 512 queries; run 3): D=64 8K keys
# 31.64 us against 108.67, 16K 58.54 against 206.77; D=128 42.73 / 96.66, 77.86 / 186.38. So the split applies at
# every length from FEW_PROGRAMS_SPLIT_KV_SEQ on. Fit (run 1): 5.67 us fixed + 0.219 us per 64-key block against
# 3.04 + 0.432 for one program per tile: the hand-over costs about 2.6 us, so at 512 keys it loses (7.36 against
# 6.45 us). With 16 heads (128 tiles, two waves of 256 programs) it loses too (x0.70-0.74, run 2): hence
# 2 x programs <= SM count.


def _split_kv_tables(parts, pack=0):
    """{(head dim, causal): build} of the one-consumer tiles split across `parts` programs: 64x128 at D=32 / 64 / 96 /
    128, 64x64 at D=192 / 256 (whose meetings merge from the workspace, sm90_fwd WS_MERGE: two 64 x 256 fp32
    accumulators in registers spilled, session 14). Session 15 added D=256, D=32, and D=96 / 192, which the kernel runs
    as 128 / 256 with zero-filled columns (sm90_fwd.kernel_head_dim)."""
    build = ("attn_fwd_sm90_ws", TileConfig(64, 128, 4, 2, split_kv=parts, pv_overlap=True, pack=pack))
    wide = ("attn_fwd_sm90_ws", TileConfig(64, 64, 4, 2, split_kv=parts, pv_overlap=True, pack=pack))
    return {(d, c): (wide if d > 128 else build) for d in HEAD_DIMS for c in (False, True)}


SM90_FEW_PROGRAMS_SPLIT_KV = _split_kv_tables(2)
FEW_PROGRAMS_SPLIT_KV_SEQ = 1024
# ... and four programs per tile where four times the grid fits the SMs (4 x programs <= SM count) with seq_k >=
# FEW_PROGRAMS_SPLIT_KV4_SEQ: the pairs' states meet once more (sm90_fwd SPLIT_KV = 4). Session 12 run 7 (graph
# replay, 512 queries, 2 and 4 heads: 16 / 32 tiles) against two programs per tile: D=64 2,048 keys 10.13 / 10.43
# us against 11.52 / 11.49, 4,096 13.71 / 13.73 against 18.26 / 18.15, 8,192 20.23 / 20.58 against 31.39 / 31.61,
# 16,384 33.84 / 34.32 against 58.53 / 58.55 (variants.select's long-sequence build there: 208.55 / 207.05);
# D=128 2,048 13.54 / 14.75 against 14.86 / 15.29, 16,384 45.19 / 46.35 against 77.07 / 77.35. Fit: 6.8-10.2 us
# fixed + 0.106 (D=64) / 0.142 (D=128) us per 64-key block against 4.8-6.4 + 0.210 / 0.278; at 1,024 keys it
# loses (8.46 against 8.16 at D=64, 11.18 against 10.52 at D=128).
SM90_FEW_PROGRAMS_SPLIT_KV4 = _split_kv_tables(4)
FEW_PROGRAMS_SPLIT_KV4_SEQ = 2048
# ... and eight or sixteen programs per tile (three or four levels of meetings) where that many times the grid fits
# half of the SMs, from FEW_PROGRAMS_SPLIT_KV8_SEQ / FEW_PROGRAMS_SPLIT_KV16_SEQ keys: the grids of packed decode calls
# (api.pack_gqa: one tile per key/value head) are this small. Session 14 run 2 (graph replay, 4 query rows per tile,
# D=128): 8 tiles, 4,096 / 8,192 / 16,384 keys: eight parts 17.5 / 22.2 / 31.9 us against four 18.5 / 27.2 / 44.6
# (sixteen 19.4 / 23.2 / 32.2; SDPA flash 18.7 / 22.8 / 30.8); at 2,048 keys eight 14.3 against four 13.7. 16 tiles
# (128 programs with eight parts): 20.8 / 45.3 against 20.0 / 47.3 at 4,096 / 16,384 keys: no gain where the split
# fills the SMs, hence half. D=64, 4 tiles of 32 rows, 8,192 keys: sixteen 13.6 us, eight 15.1, four 19.6.
SM90_FEW_PROGRAMS_SPLIT_KV8, SM90_FEW_PROGRAMS_SPLIT_KV16 = _split_kv_tables(8), _split_kv_tables(16)
FEW_PROGRAMS_SPLIT_KV8_SEQ, FEW_PROGRAMS_SPLIT_KV16_SEQ = 4096, 8192
# ... and 32 or 64 (five and six levels) for grids of one or two tiles (MQA at batch 1), from 16,384 / 32,768 keys: at
# least 512 keys per part, as for eight and sixteen. Session 14 run 9 (graph replay, D=128, 32 query rows, one tile):
# 32,768 keys 16 / 32 / 64 parts 29.2 / 22.7 / 21.2 us (SDPA flash 36.1), 65,536 keys 46.8 / 31.9 / 26.4 (flash 40.9);
# at 8,192 keys no gain (15.1 / 15.4 / 16.1); D=64 16,384 keys 14.7 / 13.0 / 12.8; two tiles, 16,384 keys 21.0 / 19.4
# / 21.1 (128 programs with 64 parts), 4 rows 18.1 / 16.5 with 32.
SM90_FEW_PROGRAMS_SPLIT_KV32, SM90_FEW_PROGRAMS_SPLIT_KV64 = _split_kv_tables(32), _split_kv_tables(64)
FEW_PROGRAMS_SPLIT_KV32_SEQ, FEW_PROGRAMS_SPLIT_KV64_SEQ = 16384, 32768
# ... and the two programs of a tile as one cluster of two CTAs (sm90_fwd CLUSTER, TileConfig.cluster; session 43) at
# D <= 128 (the kernel's head dim: a merge holds two accumulators), where twice the grid fits the SMs, from
# FEW_PROGRAMS_CLUSTER_SEQ keys: part 1 takes the first (n - 1) // 2 of the tile's key blocks (n // 2 at D <= 64 on
# 128-key blocks: sm90_fwd.cluster_even, session 44) and hands its state to
# part 0 through distributed shared memory (one bulk copy completing on part 0's mbarrier) while part 0 runs its last
# block, so the meeting costs little past it; 64-key blocks with three stages below FEW_PROGRAMS_CLUSTER_N128_SEQ keys,
# 128-key blocks from there. Session 43 call 9 (H100, graph replay, 11 interleaved rounds, us; the API's choice before
# -> the cluster build): 512 queries, 8 heads, D=64: 512 keys 6.85 -> 6.25 (the 64x128 one-program tiles 6.65), 768
# 8.28 -> 7.34, 1,024 9.48 -> 8.36 (the global two-part split 9.32), 2,048 12.71 -> 11.65, 4,096 19.38 -> 18.54;
# D=128: 512 8.20 -> 8.09, 768 10.18 -> 9.40, 1,024 12.81 -> 11.07, 2,048 17.18 -> 16.34, 4,096 26.18 -> 25.66; causal
# (S_q = S_k) (1,8,512,64) 7.05 -> 6.57, (1,8,512,128) 8.81 -> 8.39, (1,4,1024,64) 9.06 -> 8.57, (1,4,1024,128) 11.69 ->
# 10.99, (1,2,2048,64) 12.19 -> 12.03, (1,2,2048,128) 15.43 -> 14.74. Causal calls keep the 64-key blocks to 2,048 keys
# (there 128-key ones won, at 1,024 the 64-key ones). Four programs per tile (SPLIT_KV4) keep their grids: at 2,048 keys
# and 4 heads the cluster read 11.21 / 15.07 us against their 11.22 / 15.69 (D=64 / 128). Packed decode tiles and D > 128
# keep the global meetings. Those are graphs of many calls; in CUDA graphs of one call a cluster launch costs about 0.5 us
# more than a plain one (call 13: (1,8,512,64) 7.58 against 7.48 us for the 64x128 one-program tiles, D=128 9.19 / 9.02),
# which the kernel's gain covers from 768 keys, not at 512 (call 14, graphs of one call: D=64 768 / 1,024 / 2,048 keys
# 8.41 / 9.14 / 12.27 us against 9.05 / 9.86 / 13.04 for the choices before, D=128 1,024 11.49 / 13.01). Session 44
# made the meeting cheaper (O swizzled in the area, no MEMBAR.ALL.GPU before part 0's acknowledgement: sm90_fwd), and
# at 512 keys the cluster build now wins in graphs of one call too (call 7: 6.99 us against 7.38 for the 64x128 tiles);
# below 512 keys it did not at D=64 (256 / 384 keys 5.81 / 6.33 against the API's 5.42 / 6.45), so the rule stands.
def _cluster_tables(block_n, stages, max_d=128, maxnreg=0, parts=2, dims=None, cluster=True):
    build = ("attn_fwd_sm90_ws", TileConfig(64, block_n, 4, stages, split_kv=parts, pv_overlap=True, cluster=cluster,
                                            maxnreg=maxnreg))
    return {(d, c): build for d in HEAD_DIMS if d <= max_d and (dims is None or d in dims) for c in (False, True)}


SM90_FEW_PROGRAMS_CLUSTER = _cluster_tables(128, 2)
SM90_FEW_PROGRAMS_CLUSTER_N64 = _cluster_tables(64, 3)
FEW_PROGRAMS_CLUSTER_SEQ = 512
FEW_PROGRAMS_CLUSTER_N128_SEQ = {False: 768, True: 2048}
# ... from 128 keys fewer at D=128 without causal masking (session 45, H100: (1,8,512,128) x 384 keys 7.53 -> 6.74 us
# in graphs of many calls (call 1; session 44 call 7: x1.07) and 8.17 -> 7.68 in graphs of one call (call 2); 256 keys
# x0.985 / x1.016 and 7.03 -> 6.87: left out)
FEW_PROGRAMS_CLUSTER_EARLY = {(128, False): 128, (96, False): 128}  # D=96 runs D=128's binary: call 4 x1.112 / x1.096
# at 384 / 448 keys in graphs of many calls


def cluster_seq(head_dim: int, causal: bool) -> int:
    """The fewest keys at which the one-CTA-an-SM cluster builds run (FEW_PROGRAMS_CLUSTER_SEQ, less
    FEW_PROGRAMS_CLUSTER_EARLY where listed)."""
    return FEW_PROGRAMS_CLUSTER_SEQ - FEW_PROGRAMS_CLUSTER_EARLY.get((head_dim, causal), 0)


# ... and for grids of more than half the SM count and at most the SM count (67-132 tiles on 132 SMs), at head dims up
# to 64, from FEW_PROGRAMS_CLUSTER_2X_SEQ keys: the same 128-key cluster build at 128 registers a thread at launch
# (the consumer warpgroup still takes 232 by setmaxnreg, the producer's 24 leave them; 92 KB of shared memory at
# D=64), so two CTAs share an SM and the grid's clusters of two are one wave (session 44 call 15: 132 clusters of two
# resident at 128 registers). Where one program a tile (or SPLIT_K's two consumers in it) ran, each SM now holds two
# programs of two tiles, and each tile's chain of key blocks is halved. At D=128 two CTAs an SM fit only one stage (83 KB
# with the meeting area; two stages 116 KB), which lost (x0.76-0.78). Session 45 call 1 (H100, graph replay, 15
# interleaved rounds, us; the API's choice before -> this build): 512 queries, 16 heads, D=64: 512 keys 6.97 -> 7.55
# (64-key blocks), 768 8.41 -> 8.63, 1,024 10.72 -> 10.26, 2,048 16.36 -> 15.65, 4,096 26.81 -> 24.86; causal (S_q = S_k)
# (1,8,1024,64) 11.00 -> 9.94, (1,4,2048,64) 15.47 -> 14.40, (1,16,512,64) 6.86 -> 7.54 (64-key blocks); D=32 (1,16,512)
# x 2,048 keys 18.07 -> 12.07. Call 2, the API under this rule against the rule before (same rounds): 16 heads x 512
# queries, D=64, 1,024 / 4,096 / 16,384 keys 10.83 -> 10.62 / 27.69 -> 24.72 / 90.70 -> 79.43 us; 9 / 12 heads x 2,048
# keys 15.94 -> 14.63 / 16.30 -> 15.19; (2,8,512) x 8,192 keys 47.66 -> 41.69; causal (1,8,1024) 10.81 -> 9.74,
# (1,4,2048) 16.12 -> 14.44, (1,2,4096) 26.07 -> 23.43; D=32 16 heads x 1,024 / 8,192 keys 11.08 -> 8.91 / 84.10 ->
# 35.16; 132 or 128 one-query heads (decode-like) 50.80 -> 50.74 / 178.29 -> 177.16. In graphs of one call (issue 5's
# measure; a cluster launch costs about 0.5 us more) 1,024 keys 10.93 -> 10.97, 4,096 28.10 -> 24.04.
SM90_FEW_PROGRAMS_CLUSTER_2X = _cluster_tables(128, 2, max_d=64, maxnreg=128)
FEW_PROGRAMS_CLUSTER_2X_SEQ = 1024
# ... from 512 keys fewer at D=32, where the API ran the Triton short tiles below 1,024 keys (call 4, 16 heads x 512
# queries, graphs of many calls: 512 keys 6.71 -> 6.24 us, 768 keys 8.43 -> 7.08, causal 512 8.15 -> 6.59)
FEW_PROGRAMS_CLUSTER_2X_EARLY = {32: 512}


def cluster_2x_seq(head_dim: int) -> int:
    """The fewest keys at which the two-CTAs-an-SM cluster build runs (FEW_PROGRAMS_CLUSTER_2X_SEQ, less
    FEW_PROGRAMS_CLUSTER_2X_EARLY where listed)."""
    return FEW_PROGRAMS_CLUSTER_2X_SEQ - FEW_PROGRAMS_CLUSTER_2X_EARLY.get(head_dim, 0)


def cluster_variant(dtype: torch.dtype, head_dim: int, causal: bool, seq_k: int, programs: int, sm_count: int):
    """The cluster build (SM90_FEW_PROGRAMS_CLUSTER, _N64 below FEW_PROGRAMS_CLUSTER_N128_SEQ[causal] keys) where
    2 x programs <= sm_count and seq_k >= cluster_seq(head_dim, causal) at the head dims it has; the two-CTAs-an-SM build
    (SM90_FEW_PROGRAMS_CLUSTER_2X) where programs <= sm_count < 2 x programs and seq_k >= cluster_2x_seq(head_dim) at
    its head dims; else None. Public."""
    if 2 * programs > sm_count:
        if programs > sm_count or seq_k < cluster_2x_seq(head_dim) \
                or (head_dim, causal) not in SM90_FEW_PROGRAMS_CLUSTER_2X:
            return None
        return Variant(*SM90_FEW_PROGRAMS_CLUSTER_2X[(head_dim, causal)], dtype, head_dim, causal)
    if seq_k < cluster_seq(head_dim, causal) or (head_dim, causal) not in SM90_FEW_PROGRAMS_CLUSTER:
        return None
    wide = seq_k >= FEW_PROGRAMS_CLUSTER_N128_SEQ[causal]
    table = SM90_FEW_PROGRAMS_CLUSTER if wide else SM90_FEW_PROGRAMS_CLUSTER_N64
    return Variant(*table[(head_dim, causal)], dtype, head_dim, causal)


# (tiles by (head dim, causal), least seq_k, share) of the splits across programs, most programs per tile first: a
# table applies where parts x programs <= SM count // share
_SPLIT_KV_TABLES = ((SM90_FEW_PROGRAMS_SPLIT_KV64, FEW_PROGRAMS_SPLIT_KV64_SEQ, 2),
                    (SM90_FEW_PROGRAMS_SPLIT_KV32, FEW_PROGRAMS_SPLIT_KV32_SEQ, 2),
                    (SM90_FEW_PROGRAMS_SPLIT_KV16, FEW_PROGRAMS_SPLIT_KV16_SEQ, 2),
                    (SM90_FEW_PROGRAMS_SPLIT_KV8, FEW_PROGRAMS_SPLIT_KV8_SEQ, 2),
                    (SM90_FEW_PROGRAMS_SPLIT_KV4, FEW_PROGRAMS_SPLIT_KV4_SEQ, 1),
                    (SM90_FEW_PROGRAMS_SPLIT_KV, FEW_PROGRAMS_SPLIT_KV_SEQ, 1))
# ... except at head dims up to SPLIT_KV_ALL_SMS_MAX_D, where those of eight parts or more fill every SM (share 1; the
# packed tables take the same shares since session 47, PACKED_SPLIT_KV_SHARE): a D=64 part's chain (one 64-row
# consumer, a 128-key block per step) takes about 0.9 us a block
# and reads about 30 GB/s, so 64 programs leave DRAM idle where D=128's already stream near its rate. Session 46 call 2
# (H100, graph replay, 15 rounds; the (1, 8, 8, 4, S_k) calls that packed decode of (1, 32, 8, 1, S_k) runs): D=64 32,768
# keys 16 parts 31.7 us against 8 36.3 (cuDNN on the unpacked call 29.5, call 1), 8,192 keys 14.5 against 15.2, 131,072
# keys 16 parts (four stages) 98.1 against 118.6; D=128 16 parts lost (x0.93-0.95 at 16,384 / 32,768 keys), as did three
# or four stages instead of two (D=64 x0.94-1.07, D=128 x0.95-0.97).
SPLIT_KV_ALL_SMS_MAX_D = 64
# ... and where a table of 4, 8 or 16 parts applies at a head dim listed for its part count, the same split with each
# pair of parts (2k, 2k + 1) one cluster of two CTAs (sm90_fwd CL_TREE, session 47): the pair's first meeting in shared
# memory (as the two-part cluster build's), the levels above in the workspace's tree. Session 47 call 5 (H100, graph
# replay, 15 rounds, us; the API / the cluster tree at the API's part count; (1,8,8,4,S) is the call packed decode of
# (1,32,8,1,S) runs, (4,1,1,32,S) MQA decode of 4 sequences): D=64 16 parts (1,8,8,4,4096) 10.52 / 10.07 (kv16 10.60),
# 16,384 keys 21.03 / 20.04, 32,768 32.05 / 31.46, 131,072 96.90 / 95.70, (4,1,1,32,8192) 12.74 / 11.82; D=128 8 parts
# (1,8,8,4,4096) 16.71 / 15.69, 16,384 33.79 / 32.84, 32,768 55.74 / 54.70, 16 parts (4,1,1,32,8192) 21.22 / 19.40;
# 4 parts (1,4,4,512,2048,64) 11.71 / 9.83, (2,8,8,4,16384,128) 52.78 / 51.97. At D=64 eight parts lost (x0.75-0.90:
# (1,8,8,4,4096) 12.19, (4,1,1,32,8192) 16.94, (1,2,2,512,16384) 24.99 against 22.55), and 32 parts at (1,1,1,32,32768)
# x0.94: those keep the global trees. Call 6 (the API with / without it, 11 rounds, us; cuDNN beside): decode
# (1,32,8,1,S) D=64 16,384 / 32,768 keys 19.77 / 20.00, 30.69 / 31.57 (cuDNN 17.70, 28.67); D=128 4,096 / 16,384 / 32,768
# 15.50 / 16.71, 32.20 / 33.87, 53.66 / 55.01 (cuDNN 13.54, 29.91, 51.25); MQA (4,32,1,1,8192) D=64 13.82 / 14.63, D=128
# 18.94 / 20.48 (cuDNN 12.09, 13.98); D=96 (1,28,4,1,16384) 22.01 / 22.76; 4 parts (2,32,8,1,16384,128) 51.39 / 51.82,
# (4,32,8,1,4096) D=64 17.18 / 17.76, D=128 29.07 / 30.00, few-tile prefill (1,4,512,2048) D=64 9.77 / 11.20, D=128 12.89
# / 15.30, (1,2,1024,4096,128) 17.17 / 20.02, D=32 (1,4,512,4096) 11.01 / 12.12, causal (1,1,2048,2048) D=128 12.65 /
# 14.48, D=64 9.51 / 10.75; 8 parts (1,1,512,16384,128) 29.28 / 31.31; 16 parts (1,1,512,16384,64) 16.68 / 17.90. D=32
# with 16 parts lost ((1,32,8,1,16384,32) 16.29 / 15.06): left out. few_programs_variant looks the builds up in
# SM90_FEW_PROGRAMS_CL_TREE ({part count: {(head dim, causal): build}}; the A/B scripts' switch empties it).
SPLIT_KV_CLUSTER_DIMS = {4: (32, 64, 96, 128), 8: (96, 128), 16: (64, 96, 128)}
SM90_FEW_PROGRAMS_CL_TREE = {parts: _cluster_tables(128, 2, parts=parts, dims=dims)
                             for parts, dims in SPLIT_KV_CLUSTER_DIMS.items()}
# ... and calls of at most FEW_ROWS_SPLIT_KV_MAX_Q queries (tiles of that few rows: decode as the API packs it, each
# key/value head's query heads the rows of one tile; MQA) split earlier: their cluster meetings copy only the rows
# below S_q and their pairs split evenly (sm90_fwd._cluster_copy_bytes, CLUSTER_EVEN_ROWS, session 48: the same builds
# x1.004-1.10 on such calls, call 1), so a part's chain may be shorter. FEW_ROWS_SPLIT_KV: {parts: (least seq_k, share
# of the SMs as _SPLIT_KV_TABLES', head dims)}, run on the clusters of four below (call 3 shipped it on the pairs'
# trees with sixteen parts from 3,072 keys at D=64; call 8's quads replaced that). Session 48 call 2 (H100, graph
# replay, 11 rounds, us; the API's rule before / the pairs' cluster builds at 2 / 4 / 16 parts): D=64
# (1,8,8,4,S) 1,024 keys 6.93 / 6.77 / **6.43**, 1,536 8.56 / 8.33 / **7.26**, 3,072 9.90 / - / 9.77 / **9.03**, 4,096
# (8 global parts) 10.30 / - / 11.64 / **9.49**, 6,144 12.71 / - / - / **11.66**; MQA (4,1,1,32,S) 1,024 7.73 / 6.88 /
# **6.78**, 4,096 10.81 / - / - / **10.02**; (2,8,8,4,1024) 6.88 / 6.84 / **6.70**; D=128 (1,8,8,4,S) 1,024 8.62 /
# 8.44 / **7.89**, 1,536 10.67 / 10.56 / **8.96**; MQA 1,024 8.83 / 8.74 / **8.56**; (2,8,8,4,1024) 9.10 / 9.05 /
# **8.59**. Not where four parts fill every SM ((1,32,32,1,1024,128): 32 one-row tiles, four parts 11.84 against the
# rule's 10.80), hence share 2 for four; 16 parts at D=128 lost ((1,8,8,4,4096) 16.36 against 8 parts' 14.42).
FEW_ROWS_SPLIT_KV_MAX_Q = 32
# ... and such calls run each four parts as one cluster of four CTAs (sm90_fwd CLUSTER_N = 4, TileConfig.cluster = 4,
# session 48): the four meet in two levels of distributed shared memory (a copy of the tile's rows each, about 950
# cycles) instead of a cluster level and a global one (about 2,200 cycles past it), where the grid's clusters of four
# are resident at once (FEW_ROWS_QUAD_CTAS of 132 SMs: cuOccupancyMaxActiveClusters read 30 of four at one CTA an SM,
# session 44 call 15) and SM90_FEW_PROGRAMS_CL4_TREE has the part count at that head dim; and with them eight parts from
# 2,048 keys at D=64 (where the pairs' eight-part tree lost, session 47). Session 48 call 8 (H100, graph replay, 11
# rounds, us; the API's rule with pairs / clusters of four at 4 / 8 / 16 parts): D=64 (1,8,8,4,S) 1,024 keys 7.05 /
# **6.22** / 6.47, 2,048 8.65 / 7.90 / **7.45**, 4,096 9.87 / - / **9.44**, 6,144 12.26 / - / **12.02**, 8,192 (16
# pairs) 13.46 / - / 13.47; D=128 768 8.22 / **7.33**, 1,024 8.18 / **7.16**, 2,048 10.36 / **9.53** / 9.65, 4,096
# 14.81 / 14.33 / **13.44**, 8,192 20.23 / - / **18.69**, 32,768 53.44 / - / **51.47**; MQA (4,1,1,32,S) D=64 1,024
# 6.93 / **5.93**, 4,096 10.03 / - / **8.84**; D=128 1,024 8.79 / **7.75**, 4,096 14.14 / - / **12.66**, 16,384 24.91 /
# - / - / **24.39**; (2,8,8,4,1024,128) 8.89 / **7.87**; (1,16,16,1,1024,128) 8.90 / **7.55**; (1,2,2,16,8192,128)
# 15.44 / - / - / **14.04**; D=96 (1,4,4,7,4096) 12.98 / - / **11.65**. Sixteen parts at D=64 lost (MQA 4,096 keys 12.36
# against eight's 8.84: the same pattern as the pairs' eight parts there, unexplained), and clusters of four over more
# than 30 clusters run in two waves ((1,8,8,4,4096,64) sixteen parts 14.86; call 7), hence the table and the CTA bound.
FEW_ROWS_SPLIT_KV = {16: (2048, 2, (64, 96, 128)), 8: (1024, 1, (64, 96, 128)), 4: (1024, 2, (64, 96, 128))}
FEW_ROWS_QUAD_CTAS = 120
# (Their 8- and 16-part builds left the table in session 50: no grid reached them past the clusters of eight and
# sixteen below, which take the same part counts wherever the quads fit.)
SM90_FEW_PROGRAMS_CL4_TREE = {4: _cluster_tables(128, 2, parts=4, dims=(64, 96, 128), cluster=4)}
# ... and where the part count has one, each eight parts one cluster of eight CTAs (sm90_fwd CLUSTER_N = 8,
# TileConfig.cluster = 8, session 49) in place of the quads: a third level in shared memory instead of a global one, so
# eight parts meet without the workspace and sixteen with one global level (15 clusters of eight are resident at one
# CTA an SM, session 45 call 15: the same 120 CTAs as 30 quads, FEW_ROWS_QUAD_CTAS); with them eight parts from 1,024
# keys at D = 64 / 96 / 128 (FEW_ROWS_SPLIT_KV). Session 49 call 2 (H100, graph replay, 15 rounds, us; the API (the
# quads' rule) / quads at the part count / eight-CTA clusters at 8 / 16 parts; packed decode as the API runs it):
# D=128 (1,8,8,4,S) 1,024 7.23 / 7.41 (q4) / **6.64**, 2,048 9.68 / 9.97 (q4) / **8.49**, 4,096 13.66 / 13.79 / **12.18**,
# 8,192 19.10 / 19.88 / **17.37**, 32,768 52.29 / 54.44 / **50.56**; D=64 1,024 6.23 / 6.09 (q4) / **5.54**, 2,048 7.20
# / 7.36 / **6.47**, 4,096 9.18 / 9.31 / **8.72**, 8,192 13.37 (16 pairs) / 13.53 / **12.70**; MQA (4,1,1,32,S) D=128
# 4,096 12.99 / 12.98 / **11.55** / 12.35, 8,192 17.45 / 17.70 (q16) / 15.88 / **15.87**, 16,384 23.23 / 23.30 (q16) /
# - / **21.52**; D=64 4,096 9.26 / 9.18 / 8.32 / **8.23**, 8,192 12.21 / 12.74 / 12.00 / **10.21**; D=96 (1,4,4,7,S) 4,096
# 11.46 / 11.44 / **10.12** / 10.49, 16,384 19.88 / 20.07 (q16) / - / **18.51**; (1,2,2,16,8192,128) 14.30 / 14.41 (q16)
# / 14.61 / **13.15**. Call 3 (the same, 11 rounds): 32 and 64 parts as clusters of eight (two and three global
# levels) against the global trees at D=128, one tile of 32 rows (4,1,1,32,S) -> (1,1,1,32,S): 16,384 keys kv32 21.87 /
# o16 19.09 / **o32 17.02**, 32,768 kv64 27.41 / o32 22.22 / **o64 22.12**, 65,536 kv64 32.60 / o32 30.52 / **o64
# 28.17**; two tiles (2,1,1,32,32768) kv32 30.01 / o16 27.36 / **o32 24.31**; at D=64 they lost ((1,1,1,32,32768) kv64
# **15.77** / o32 18.31 / o64 18.79: the register merge's pattern of sessions 47-48 with global levels below the root);
# call 6 merged them from the workspace as at D = 96 / 128 (sm90_fwd WS_MERGE), and they won: (1,1,1,32,16384,64) kv32
# 14.07 / o32 **12.37**, (1,1,1,32,32768,64) kv64 16.42 / o64 **15.25** / o32 16.33. Eight parts as one cluster
# against sixteen as pairs where sixteen in clusters of eight do not fit (8 tiles at D=64): (1,8,8,4,S) 8,192 o8 12.70 /
# cl16 13.65 (call 2), 16,384 19.40 / 19.08, 32,768 32.83 / 30.47, 131,072 113.78 / 94.94: the rule keeps the pairs. Grids of 12-15 tiles, eight parts (96-120 CTAs)
# against the quads' four: (1,15,15,4,1024,128) o8 7.05 / q4 7.43, 4,096 16.21 / 16.21, (1,12,12,4,2048,64) o8 6.46 /
# q8 7.19 / q4 7.46, (1,15,15,4,8192,64) o8 15.69 / q8 16.17; the rule check's (1,60,15,1,2048,128) read 11.39 against
# the quads' 11.04 (x0.97, the one loss of the 27 cases).
# (Their 16-, 32- and 64-part builds left the table in session 50: clusters of sixteen take those part counts wherever
# clusters of eight would fit, FEW_ROWS_X16_CTAS and FEW_ROWS_QUAD_CTAS leaving no multiple of sixteen between them.)
SM90_FEW_PROGRAMS_CL8_TREE = {8: _cluster_tables(128, 2, parts=8, dims=(64, 96, 128), cluster=8)}
# ... and where the grid's clusters of sixteen fit (parts x programs <= FEW_ROWS_X16_CTAS of 132 SMs: the driver's
# occupancy query read 7 clusters of sixteen resident at one CTA an SM, session 50 call 1), each sixteen parts one
# cluster of sixteen CTAs (sm90_fwd CLUSTER_N = 16, a non-portable cluster size that cluster_launcher allows on the
# function; TileConfig.cluster = 16): a fourth level in shared memory, levels 2 and 3 in the areas of levels 0 and 1,
# so sixteen parts meet without the workspace and 32 / 64 with one / two global levels. Session 50 call 1 (H200, graph
# replay, 15 rounds, us; clusters of eight / sixteen at the same part count): (1,1,1,32,S) D=128 8,192 keys 16 parts
# 13.87 / **12.10**, 16,384 32 parts 16.20 / **15.33**, 32,768 64 parts 21.25 / **19.76**; D=64 16,384 12.62 / **10.63**,
# 32,768 14.66 / **13.33**; (4,1,1,32,8192,128) 15.27 / **13.44**; (2,1,1,32,32768,128) 32 parts 23.98 / 24.00; D=96
# (1,4,4,7,4096) eight parts (the rule's) 10.41 against sixteen as one cluster **9.12**. Call 2 (H200, 11 rounds, us;
# clusters of eight / sixteen): (1,1,1,32,S) D=128 2,048 keys eight parts 9.21 / sixteen 9.18, 4,096 11.22 / **10.19**
# (32 parts 12.05); (4,1,1,32,S) 2,048 9.13 / 9.10, 4,096 11.45 / **10.56**; (7,1,1,32,4096) **12.43** / 12.54 (112
# CTAs); D=64 (1,1,1,32,S) 2,048 7.08 / **6.74**, 4,096 8.60 / **7.58**: hence FEW_ROWS_SPLIT_KV's sixteen parts from
# 2,048 keys where sixteen times the grid fits half of the SMs (at most four tiles). Past that sixteen parts keep their
# keys (8,192) and, as one cluster of sixteen, run wherever the clusters fit (past the share of the SMs that
# _SPLIT_KV_TABLES give D > 64): on seven tiles they won, (7,1,1,32,16384,128) 16 parts 25.14 / **22.21**,
# (7,1,1,32,8192,64) 11.63 / **10.70**, and rule_check's (1,28,7,1,8192,128) read 14.15 against the eight parts of
# session 49's rule 15.82. And at D <= SPLIT_KV_ALL_SMS_MAX_D, where the split tables fill every SM, a
# part count whose clusters do not fit gives way to half as many parts where those fit as clusters of sixteen:
# (4,1,1,32,16384,64) 32 parts in a global tree 16.18 against sixteen as one cluster **13.70**, where those take at
# most FEW_ROWS_HALF_KEYS keys a part. Call 3 (rule_check --set x16, 7 rounds, us; the API / session 49's rule /
# cuDNN): (4,32,1,1,16384,64) **13.48** / 15.26 / 13.34, (2,32,1,1,32768,64) 32 parts as two clusters **14.97** /
# 16.65 (64 in a global tree) / 14.87, but (4,32,1,1,32768,64) 16 parts of 2,048 keys 20.90 / **20.00** / 18.74: the
# bound lies between 1,024 keys a part (x1.12 / x1.11) and 2,048 (x0.96). Call 7 (15 rounds, us; the split's global
# tree / half its parts as clusters of sixteen) at 1,536 keys a part: (4,1,1,32,24576,64) 17.64 / **16.87**,
# (2,1,1,32,49152,64) 19.46 / **18.31**; at 1,280: (4,1,1,32,20480,64) 16.52 / **14.95**.
FEW_ROWS_HALF_KEYS = 1536
FEW_ROWS_X16_CTAS = 112
SM90_FEW_PROGRAMS_CL16_TREE = {parts: _cluster_tables(128, 2, parts=parts, dims=(64, 96, 128), cluster=16)
                               for parts in (16, 32, 64)}
# ... and (session 53) at the head dims whose clusters meet in one exchange (FEW_ROWS_PULL_DIMS: sm90_fwd.cluster_pull_ok,
# D = 64 / 128), where a tile's two or four clusters of sixteen exchange and their column slices meet in the workspace
# (sm90_fwd._clp_global, a sixteenth of a whole state each at the global level), such calls split into 64 parts from
# 8,192 keys where 64 times the grid fits FEW_ROWS_X16_CTAS (one tile), into 32 from 4,096 where 32 times it does (up to
# three tiles): at least one 128-key block a part, ahead of the rules above. Session 53 call 2 (H200, graph replay, 11
# rounds, us; sixteen / 32 / 64 parts, each sixteen one cluster exchanging): D=128 one tile of 32 rows 2,048 keys
# **7.23** / 8.01 / 8.60, 4,096 8.66 / **8.01** / 9.03, 8,192 10.57 / 9.86 / **9.11**, 16,384 - / 11.90 / **10.65**;
# D=64 2,048 **6.28** / 6.89 / 7.47, 4,096 7.01 / **6.62** / 7.27, 8,192 8.78 / 7.65 / **7.43**, 16,384 - / 9.34 /
# **8.78**; two tiles D=128 4,096 8.31 / **7.66**, 8,192 10.94 / **9.42**; D=64 4,096 7.37 / **6.97**; three tiles D=128
# 8,192 11.40 / **10.17**, 16,384 16.95 / **13.72**; D=64 16,384 12.85 / **10.72**. Call 1 (9 rounds): 64 parts at
# 32,768 / 65,536 keys (D=128) 13.36 / 18.13 against the tree of levels' 20.07 / 25.15.
FEW_ROWS_PULL_SPLIT = {64: 8192, 32: 4096}  # {parts: least seq_k}, most parts first
FEW_ROWS_PULL_DIMS = (64, 128)


def _split_kv_share(head_dim: int, share: int) -> int:
    """The share of the SMs a split-KV table's grid may take (_SPLIT_KV_TABLES; public: the head dim)."""
    return 1 if head_dim <= SPLIT_KV_ALL_SMS_MAX_D else share


# Causal grids of up to twice the SM count (SM count < programs <= 2 x SM count) with seq_k >= 1024: the split-key
# build too (D=64 / 128). With such grids the heaviest causal tiles set the pace, and splitting their keys
# halves their chains. Session 7 run 14 (graph replay, 256 programs, against the API's choice before it):
# (2,8,1024,64) causal x1.20, (2,4,2048,64) causal x1.42, (2,4,2048,128) causal x1.21; non-causal, where the
# two waves are balanced, split keys lose (x0.77-0.87) and the usual choice stays.
SM90_FEW_PROGRAMS_CAUSAL_2X = {64: _SPLIT_K, 128: _SPLIT_K}
FEW_PROGRAMS_CAUSAL_2X_SEQ = 1024
# ... and below those keys, at the head dims listed, the short tiles (SM90_FEW_PROGRAMS), where select's paired 128-row
# units (n64s3_bal at D=128) would fill at most half of the SMs (a grid of at most 2 x SM count 64-row programs is at
# most that many units). Session 46 call 7 (H100, graph replay, 11 rounds, causal S_q = S_k, us, the API / the short
# tiles / the split-key build / cuDNN): (1,24,512,128) 17.82 / 12.32 / 12.67 / 13.86, (1,32,512) 16.13 / 13.71 / 14.76 /
# 16.03, grouped (1,32/8,512) 14.44 / 12.15 / 13.09 / 13.72, (1,32,384) 12.69 / 10.45 / 12.37 / 12.19, (1,20,768) 18.38 /
# 16.69 / 15.04 / 17.76; past the band the paired units stay ahead: (1,40,512) (320 programs) 16.43 / 16.60, (1,48,512)
# 17.02 / 18.63, (2,32,512) 18.04 / 22.30.
FEW_PROGRAMS_CAUSAL_SHORT = (96, 128)  # (D=96 runs as 128: PADDED_HEAD_DIMS)
# Calls with at most FEW_PROGRAMS_ROWS queries per head (decode-like: one query tile per head) on grids of more
# programs than the SM count (fewer take the rules above), at the head dims listed: the 64-row short tiles at every
# length, where variants.select's long-sequence builds would waste 128 or 191 of their 192-row tiles. Session 13
# run 8 (graph replay, one query per sequence, D=64): (32,32) x 8,192 keys 486.0 us (4.42 TB/s of K/V) against
# 814.2 for the three-consumer build select chose (cuDNN 484.8, FA2 941.1); (16,32) x 16,384 488.3 / 794.6;
# (64,16) x 8,192 486.1 / 804.3. At D=128 every build reads at 4.4-4.5 TB/s there (the persistent 128-row tiles
# 482.4-485.5 us, the short tiles 481.0-482.7): no change.
SM90_ONE_TILE = {64: SM90_SHORT[64]}
# ... and at D=128, non-causal, the one-consumer 64x128 Gluon tiles (SM90_FEW_PROGRAMS_MID's) instead of select's
# persistent 128-row tiles (half of whose rows a one-query call wastes; the call is memory-bound either way). Session 46
# call 5 (H100, graph replay, 11 rounds, one query, H = H_kv, us, the API before / these / the short tiles / cuDNN):
# (128,8) x 512 keys 95.0 / 92.7 / 92.4 / 92.7, (32,32) x 2,048 353.9 / 351.3 / 353.3 / 355.0, (64,16) x 1,024 181.4 /
# 178.1 / 179.8 / 180.1.
SM90_ONE_TILE_FULL = {128: _FEW_X1_N128}
# ... and with up to 128 queries per head past the short-tile lengths (where select would run the 192-row tiles),
# the two-consumer build's 128-row tiles. Session 13 run 12 (graph replay, D=64, non-causal), 96 / 128 queries:
# (16,32) x 8,192 keys 337.4 / 347.0 us against 493.9 / 503.2 for the 192-row tiles (the short tiles 346.7 / 355.4,
# cuDNN 328.7 / 337.1); (8,16) x 16,384 159.6 / 164.4 against 231.8 / 238.0 (short tiles 196.0 / 200.6, cuDNN
# 158.3 / 165.6). At 192 queries the 192-row tiles stay ahead (485.1 us against 660.1). Causal (bottom-right, run 13),
# 96 / 128 queries: (16,32) x 16,384 keys 700.3 / 711.8 against 979.4 / 997.6; (8,16) x 16,384 171.9 / 176.2 against
# 246.4 / 251.5.
SM90_TWO_TILES = {64: _GLUON_N128S2}
# Further configurations the autotuner (dhpfa.tune) may choose on sm_90; shipped, so audited like the rest.
SM90_TUNE_EXTRA = {
    64: (_GLUON_N128S2, _GLUON_N128S3),
    128: (_GLUON_N128S2, _GLUON_N64S3),
    256: (("attn_fwd_sm90_ws", TileConfig(128, 64, 4, 2, split=2, pingpong=True)),),  # one program per tile
}
# Calls of 2 to PACK_MAX_QUERIES queries per sequence (speculative decoding's drafts, small prefill chunks) with grouped
# heads (2 or more query heads sharing each key/value head): a group's query heads run as the rows of pack_blocks 64-row
# tiles, pack_heads heads each (sm90_fwd PACK), in slots of PACK_ROWS rows, ceil(queries / PACK_ROWS) slots per head, so
# each key/value block is read and multiplied once per tile instead of once per query head, and the grid is that many
# times smaller, which leaves room to split the keys across more programs. The split builds above with PACK, and the same
# rule for the part count as few_programs_variant's applied to the packed grid (since session 47 with its shares too:
# 8-64 parts on half of the SMs at D > 64; sessions 16-46 let every part count fill all of them). Session 16 run 16 (graph replay, the
# packed call forced to each part count, then 16-row slots of 4 heads): (1,64,8,8,32768,128) 8 parts 51.0 us against
# 78.8 with 4 (the rule with half of the SMs); (2,32,8,4,16384,64) 27.1 against 35.5; (1,32,8,4,8192,128) 16 parts 23.7
# against 8 parts 22.7 (the one row it costs); the other six rows unchanged. Session 17: 8-row slots, so that a tile
# takes up to 8 heads of up to 8 queries (groups of 8: half the tiles of session 16's 4 x 16), 4 of up to 16 or 2 of up
# to 32, and a group of any size spread evenly over as few tiles as hold it (7 as 4 + 3; Gemma's and Qwen's groups of
# 2, 5, 6, 7), not only multiples of 4 (docs/perf-log.md, session 17).
# Session 18: on grids too big to split, 128-row packed tiles on the persistent two-consumer builds (SM90_PACKED_PP, 64
# rows = 8 slots a consumer, ping-pong turns), so up to 64 queries pack (two heads a tile); see packed_variant.
PACK_ROWS = 8
PACK_MAX_QUERIES = 64
_PACK_TILE_ROWS = 64  # the one-consumer packed builds' block_m (_split_kv_tables)
PACK_PP_ROWS = 128  # the two-consumer packed builds' block_m (SM90_PACKED_PP)


def pack_blocks(group: int, seq_q: int, block_m: int = _PACK_TILE_ROWS, slot_rows: int = PACK_ROWS) -> int:
    """Packed tiles (blocks of query heads) per key/value head for a call of seq_q queries with `group` query heads per
    key/value head: as few as fit, each head taking ceil(seq_q / slot_rows) slots of slot_rows rows of a block_m-row
    tile, rounded up to a power of two (the kernel gives each of a tile's heads a power of two of slots:
    sm90_fwd._pack_shift); 0 where not even one head's slots fit. Public: shapes."""
    per_head = 1 << (-(-seq_q // slot_rows) - 1).bit_length()
    fit = block_m // slot_rows // per_head  # heads a tile holds
    return -(-group // fit) if fit else 0


def pack_heads(group: int, seq_q: int, block_m: int = _PACK_TILE_ROWS, slot_rows: int = PACK_ROWS) -> int:
    """Query heads per packed tile: the group spread evenly over pack_blocks tiles (ceil(group / blocks); the last
    block of a group holds fewer where that does not divide it, as sm90_fwd._pack_block lays them out); 0 where none
    fits. Public: shapes."""
    blocks = pack_blocks(group, seq_q, block_m, slot_rows)
    return -(-group // blocks) if blocks else 0


_PACKED_SPLIT_KV_TABLES = tuple((_split_kv_tables(table[(64, False)][1].split_kv, PACK_ROWS), least, share)
                                for table, least, share in _SPLIT_KV_TABLES)
# ... with the unpacked tables' shares (_split_kv_share: 8-64 parts fill half of the SMs at D > 64) where
# PACKED_SPLIT_KV_SHARE, else every SM (share 1, sessions 16-46). Session 47 call 2 (H100, graph replay, 11 rounds, us,
# the API with / without it; cuDNN 1.5-8x slower throughout): (1,32,8,4,8192,128) 8 parts 25.86 / 16 parts 27.99,
# 5 queries 25.75 / 27.75, (1,64,8,8,32768,128) 61.05 / 64.93, (2,32,8,16,4096,128) 4 parts 23.75 / 8 parts 27.64,
# (1,32,4,8,32768,128) 16 / 32 parts 42.04 / 46.20, (1,28,4,4,16384,128) 29.59 / 31.68, D=256 (1,32,8,4,16384) 62.29 /
# 66.69, causal (1,32,8,4,16384,128) 5.85 / 6.07 (top-left: one block), (2,32,8,4,16384,128) 56.36 / 61.31,
# (1,32,8,4,65536,128) 105.21 / 107.01, D=96 (1,28,4,3,16384) 26.00 / 26.74; D=64 unchanged (19.38 / 19.31). Session 44
# call 1 read the same for one query packed (8 parts x1.07-1.11 over 16 at D=128, 16 ahead at D=64).
PACKED_SPLIT_KV_SHARE = True
# ... and where no split applies (grids of many packed tiles, or short keys): the same builds with one program per
# packed tile (split_kv = 1: no meetings), so large batches read each key/value block once per pack_heads heads too
SM90_PACKED = _split_kv_tables(1, PACK_ROWS)
# ... and, where the 128-row packed grid is too big for a split (2 x tiles > SM count) and a group needs two or more
# 64-row tiles (or cannot pack into them: 33-64 queries, at D >= 96): 128-row packed tiles on the persistent
# two-consumer builds (sm90_fwd PACK with SPLIT = 2: each consumer's 64 rows are 8 of the tile's 16 slots; ping-pong
# turns, as the prefill builds take). Session 18 (graph replay, 9 rounds, causal bottom-right unless marked nc):
# runs 1-2 had 128-row tiles in one consumer partition of two warpgroups (8 warps): a 128-row step cost about 1.8x a
# 64-row one, and they lost to the unpacked call on every grid small enough to split (x0.75-0.94) and at D=64
# (x0.70-0.97). Run 3, this build against the API before it (8-warp builds at 33-64 queries, 64-row packed tiles up to 32) and the unpacked
# call: (16,32,8,64,4096,128) 122.1 us against 163.0 / 219.4 unpacked; (32,32,8,33,2048,128) 124.6 / 163.0 / 212.8;
# (16,16,4,48,4096,256) 114.2 / 133.5 / 213.6; (6,32,8,40,4096,128) nc 53.0 / 71.5 / 98.3; (8,32,8,48,4096,128) 61.8 /
# 78.7 / 74.3; 17-32 queries (16,32,8,32,4096,128) 73.9 against 91.0 (64-row packed), (32,32,8,17,4096,128) 137.3 /
# 174.6. It lost where a group fits one 64-row tile ((16,64,8,8,4096,128) 72.1 / 64.5), on small grids ((1,32,8,48,8192,
# 128) 100.5 against 27.1 unpacked, the 64-row tiles split across programs) and at D=64 ((16,32,8,64,4096,64) 91.5 /
# 85.0 unpacked, the short Triton tiles). Run 6: at D=64 / 32 with 9-32 queries it beats the 64-row packed tiles too
# ((16,32,8,32,4096,64) 50.0 against 68.3 us, (32,32,8,17,4096,64) 94.1 / 133.8, (64,28,4,12,2048,64) 53.4 / 74.5,
# (48,32,8,20,2048,64) nc 73.8 / 112.4, (32,40,8,16,4096,32) 77.7 / 109.8), so below D=96 it runs up to 32 queries.
# Runs 8 and 11: past 32 queries it lost where its tiles took two waves and the unpacked grid fit twice the SMs (64-row
# builds there): (48,5,1,43,K,128) causal, 144 tiles, 240 query heads x sequences, x0.86 / 0.67 / 0.62 at K = 700 /
# 2,048 / 4,096 keys, x0.91 non-causal; with one wave ((66,4,1,50,1000,128) 132 tiles, x1.43) or 288 heads x sequences
# ((72,4,1,43,700,128), x1.18) it won: so past 32 queries it needs one of the two.
_PACKED_PP = ("attn_fwd_sm90_ws", TileConfig(128, 128, 4, 2, split=2, pingpong=True, persistent=True, pack=PACK_ROWS))
_PACKED_PP_WIDE = ("attn_fwd_sm90_ws", TileConfig(128, 64, 4, 2, split=2, pingpong=True, persistent=True,
                                                  pack=PACK_ROWS))
SM90_PACKED_PP = {(d, c): (_PACKED_PP_WIDE if d > 128 else _PACKED_PP) for d in HEAD_DIMS for c in (False, True)}
PACK_PP_LONG_MIN_HEAD_DIM = 96  # past 32 queries (no 64-row packing) the two-consumer packed builds run from this D


def packed_variant(dtype: torch.dtype, head_dim: int, causal: bool, seq_q: int, seq_k: int, heads: int, kv_heads: int,
                   batch: int, sm_count: int):
    """The packed build for a call of 2 <= seq_q <= PACK_MAX_QUERIES queries per sequence whose key/value heads each
    serve a group of query heads: the two-consumer 128-row build (SM90_PACKED_PP) where its grid (batch * kv_heads *
    pack_blocks(..., PACK_PP_ROWS) tiles) is too big to split (2 x tiles > sm_count), it packs 2 or more heads a tile,
    and the group needs 2 or more 64-row tiles (always so past 32 queries, where head_dim must be at least
    PACK_PP_LONG_MIN_HEAD_DIM, and the tiles fit one wave unless the unpacked grid exceeds twice the SMs); else, where
    pack_heads packs 2 or more heads into a 64-row tile: split where the split rules of few_programs_variant choose a split for the packed grid, or one
    program per packed tile (SM90_PACKED); None for other calls (they run unpacked). Public: shapes, the GPU."""
    if not 2 <= seq_q <= PACK_MAX_QUERIES or heads % kv_heads:
        return None
    group = heads // kv_heads
    blocks = pack_blocks(group, seq_q)  # 64-row packed tiles per key/value head
    packs_64 = pack_heads(group, seq_q) >= 2  # 2+ heads a 64-row tile: up to 32 queries
    pp_tiles = batch * kv_heads * pack_blocks(group, seq_q, PACK_PP_ROWS)
    # past 32 queries the alternative is the unpacked call, whose 64-row builds for grids of up to twice the SMs beat
    # two or more waves of two-consumer tiles
    pp_ok = packs_64 or (head_dim >= PACK_PP_LONG_MIN_HEAD_DIM
                         and (batch * heads > 2 * sm_count or pp_tiles <= sm_count))
    if pp_ok and (head_dim, causal) in SM90_PACKED_PP and pack_heads(group, seq_q, PACK_PP_ROWS) >= 2 \
            and blocks >= 2 and 2 * pp_tiles > sm_count:
        return Variant(*SM90_PACKED_PP[(head_dim, causal)], dtype, head_dim, causal)
    if not packs_64:
        return None
    programs = batch * kv_heads * blocks
    for table, least_seq_k, share in _PACKED_SPLIT_KV_TABLES:
        kernel, config = table[(head_dim, causal)]
        share = _split_kv_share(head_dim, share) if PACKED_SPLIT_KV_SHARE else 1
        if config.split_kv * programs <= sm_count // share and seq_k >= least_seq_k:
            return Variant(kernel, config, dtype, head_dim, causal)
    return Variant(*SM90_PACKED[(head_dim, causal)], dtype, head_dim, causal)


# D=96 and 192 take every Gluon table's entry of D=128 and 256, which the kernel runs padded (sm90_fwd.kernel_head_dim:
# the TMA loads zero-fill the columns past D, the O store clips them), as the split tables above do since session 15.
# Their SASS is that of the D=128 / 256 builds. The portable Triton tiles pad the same way (BLOCK_D), so the Gluon
# builds do no more padded work than those did. Session 16 (docs/perf-log.md) measured them on the prefill grid.
PADDED_HEAD_DIMS = {96: 128, 192: 256}


def _add_padded(table):
    for key in list(table):
        d = key[0] if isinstance(key, tuple) else key
        for padded, kernel_dim in PADDED_HEAD_DIMS.items():
            if d == kernel_dim:
                table.setdefault((padded,) + key[1:] if isinstance(key, tuple) else padded, table[key])


for _table in (SM90_GLUON, SM90_GLUON_BY_CAUSAL, SM90_GLUON_QD, SM90_GLUON_SHORT, SM90_FEW_PROGRAMS,
               SM90_FEW_PROGRAMS_MID, SM90_FEW_PROGRAMS_LONG, SM90_FEW_PROGRAMS_CAUSAL_2X, SM90_TUNE_EXTRA):
    _add_padded(_table)
del _table

# Small tiles for the CPU interpreter: several blocks per row even at tiny sequence lengths.
INTERPRETER_DEFAULT = ("attn_fwd_tma", TileConfig(16, 16, 4, 1))

# Variable-length sequences packed along the rows (flash_attn_varlen_func): the portable kernel with pointer loads
# (a TMA tile would cross into the next sequence's rows, and a TMA store would write them), one binary per dtype, head
# dim and causal flag, on every GPU. Tiles as SM90_SHORT's: packed batches are mostly short sequences.
# Its options, each a constexpr of one kernel function (triton_fwd.attn_fwd_varlen) under its own name: a local window
# (flash-attn's window_size; causal calls with a window run as a window with right side 0, never with the causal flag)
# and soft-capped scores (softcap).
# With grouped-query heads, the group's heads run as rows of one tile (the kernel's G, public) where the queries per
# sequence are few (VARLEN_GROUP_MAX_Q), as for decode steps and speculative drafts. Where a call's grid would leave
# most SMs idle and the keys are long, each tile's key blocks are split across programs ("_split"; varlen_splits) and
# attn_varlen_combine merges the parts.
VARLEN_KERNEL = "attn_fwd_varlen"
# (local, softcap, split, group, paged, page_blocks) -> name; paged caches (block_table) with a window or soft-capping
# only in the grouped form (decode steps and drafts of grouped-query heads, session 34: the other paged calls with a
# window or soft-cap take the Hopper paged builds or a copy of their pages, api._gather_pages, so that the binaries stay
# 128 more rather than 480). Paged builds come in two forms, chosen on the host by the public page size: "_paged"
# reads a page index per key (any page size), "_paged_blocks" one per key block (pages holding whole blocks: page_size % block_n == 0).
# Session 23 run 7 (H200, paged / contiguous on the same keys, pages of 256): per block against per key, D=128 decode
# x1.10 / x1.12, D=256 x1.08 / x1.20, 64-query prefill chunks D=128 x1.24 / x1.56, D=64 x1.18 / x1.56 (pages of 64).
# Both forms in one binary (session 22 run 4) made decode slower in both, so they are separate builds.
VARLEN_KERNELS = {(local, softcap, split, group, paged, blocks): VARLEN_KERNEL + ("_local" if local else "")
                  + ("_softcap" if softcap else "") + ("_split" if split else "") + ("_gqa" if group else "")
                  + ("_paged" if paged else "") + ("_blocks" if blocks else "")
                  for local in (False, True) for softcap in (False, True) for split in (False, True)
                  for group in (False, True) for paged in (False, True) for blocks in (False, True)
                  if not (paged and (local or softcap) and not group) and not (blocks and not paged)}
VARLEN_PAGE_BLOCKS = True  # False: every paged call on the per-key form (for comparison)
VARLEN_COMBINE = "attn_varlen_combine"
VARLEN_COMBINES = {False: VARLEN_COMBINE, True: VARLEN_COMBINE + "_gqa"}
VARLEN_GROUP_MAX_Q = 32  # grouped tiles win at 1-32 queries (x1.1-2.1), lose 5% at 64 (session 20 runs 7-8)
# head dims with grouped builds ("_gqa"; the others run one head per tile). 192 since session 23 (run 11: decode steps
# at D=192 ran one head per tile, twice the time of D=256's grouped ones)
VARLEN_GROUP_HEAD_DIMS = (64, 128, 192, 256)
VARLEN_SPLIT_MAX = 16       # parts per tile
VARLEN_SPLIT_MIN_KEYS = 512  # keys per part of the longest sequence, at least
# parts x programs at most this many times the SM count: 4, and 8 for head dims up to 64 (their builds hold three or
# four programs an SM, D=128 two, D=192 / 256 one). Session 36 (H100, decode_split_sweep.py: 9 decode shapes x D=64 /
# 128 / 256 x full, random and one-long cache lengths, 1-16 parts forced) against the budget of 16 that session 20 set
# for every head dim (on an H200, an older kernel): where the two rules differ (16 of 27 shapes), x1.00-1.22 faster
# with full and random lengths, x1.0-2.2 with one long sequence, 1-3% slower at 5 of those 48 points; at every one of
# the 81 points within 15% of the fastest count measured there (the old rule: within 54%).
VARLEN_SPLIT_PROGRAMS = 4
VARLEN_SPLIT_PROGRAMS_SMALL_D = 8
VARLEN_SPLIT_MAX_Q = 32      # split only calls of at most this many queries per sequence (decode-like: measured)
VARLEN_SPLIT_FORCE = None    # tests: this many parts for every call (None: varlen_splits' rule)
# Equal lengths: a varlen call whose rows are exactly B sequences of max_seqlen_q queries and max_seqlen_k keys (total_q
# = B * max_seqlen_q, total_k = B * max_seqlen_k: with every length at most its max_seqlen, as the caller promises,
# each is then equal to it) can run as one dense (B, S, H, D) call on the dense kernels (on sm_90 only, where it was
# measured: the Hopper Gluon builds), then triton_fwd.varlen_equal_guard NaNs any block whose offsets disagree. Hugging Face transformers unpads
# every batch that comes with an attention mask, so unpadded batches arrive this way. Session 21 runs 1-3 (H200, graph
# replay, the API's dense path / the varlen kernel): D=128 x1.05-1.42 from 96 queries per sequence up (16 x 1024: 543 /
# 383 TFLOPS; 4 x 4096: 599 / 433; one loss, 192 x 192 non-causal x0.88-0.96), x0.6-0.7 at 40-64 queries (about 10 us
# calls where the varlen kernel's 6 us wins); D=96 x1.33-1.45 and D=256 x2.2-2.4 at 1-2K; D=64 within x0.96-1.06 at
# 512-4096 queries and x0.79 at 4 x 128 x 1024 causal, so D <= 64 stays on the varlen kernel. Eager host time 37-43 us
# against the varlen kernel's 30-35. Public: shapes, max_seqlen_*. VARLEN_DENSE_MIN_Q None: never (for comparison).
VARLEN_DENSE_MIN_Q = 96              # queries per sequence, head dims above 64
VARLEN_DENSE_MIN_Q_SMALL_D = None    # head dims 32 and 64: never (None)


# flash_attn_with_kvcache with equal caches (cache_seqlens an int or None, no cache_batch_idx / leftpad / pages) and at
# most this many queries per sequence (decode steps, drafts), inside a CUDA graph's capture: flash_attn_func on the
# cache's first rows (the dense route: packed grouped heads, key splits met inside one launch) rather than the varlen
# kernel's bounds (or append), attention and combine launches; but one sequence of more than
# KVCACHE_DENSE_ONE_SEQ_MAX_K keys stays on the varlen kernel, whose split rule gives a lone sequence more parts. None:
# never (for comparison). Session 37 (H100, kvcache_dense_ab.py, graph replay, 5 interleaved rounds, x = varlen route /
# dense route, 32 / 8 heads, D=256 16 / 8; every output within 2.4e-3 of float64 both ways): one query, 8-64 sequences
# x1.01-1.29 (D=64 x1.10-1.29, D=128 x1.01-1.18, D=256 x1.01-1.17), one sequence of 4,096 keys x1.08-1.36, of 32,768
# x0.955 / x0.980 / x1.008 (D=64 / 128 / 256); 4 queries x1.15-1.26, 16 x1.40-1.58, 32 x0.99-1.76, 64 x0.97-1.30; 32 /
# 32 heads (no groups) x0.99-1.10; with the new token appended (D=128) x1.00-1.13, one sequence x0.979 (4,096) / x0.947
# (32,768). Eager calls (kvcache_dense_ab.py --eager, the same H100) are host-bound, and there the dense route's host
# path (the checks, then flash_attn_func, whose plan misses at every new length) cost more than the varlen route's
# planned one: a decode loop appending a token a step 193-337 us a step against 153-245 (one exception, D=256 B=32:
# 192 / 209), repeats of one call 100-184 us against 43-193. So eagerly (KVCACHE_DENSE_EAGER False) the varlen route
# stays.
KVCACHE_DENSE_MAX_Q = 64
KVCACHE_DENSE_ONE_SEQ_MAX_K = 8192
KVCACHE_DENSE_EAGER = False  # True: eager calls too (the interpreter's tests)


def kvcache_dense(head_dim: int, seqlen_q: int, num_splits: int = 0, batch: int = 2, keys: int = 0,
                  graph: bool = True) -> bool:
    """Whether a flash_attn_with_kvcache call of equal caches (batch sequences of `keys` keys) with seqlen_q queries
    runs flash_attn_func on the cache's rows: prefill chunks (varlen_dense) and, from session 37, decode-like calls
    (KVCACHE_DENSE_MAX_Q) in a CUDA graph's capture (graph; or eagerly with KVCACHE_DENSE_EAGER) that do not ask for a
    part count (num_splits > 0 runs that many parts on the varlen kernel), but for one long sequence
    (KVCACHE_DENSE_ONE_SEQ_MAX_K). Public: the head dim, shapes, num_splits and whether the stream is capturing."""
    if varlen_dense(head_dim, seqlen_q):
        return True
    return KVCACHE_DENSE_MAX_Q is not None and seqlen_q <= KVCACHE_DENSE_MAX_Q and not num_splits \
        and (graph or KVCACHE_DENSE_EAGER) and not (batch == 1 and keys > KVCACHE_DENSE_ONE_SEQ_MAX_K)


def varlen_dense(head_dim: int, max_seqlen_q: int) -> bool:
    """Whether an equal-length varlen call with this head dim and max_seqlen_q runs on the dense kernels."""
    least = VARLEN_DENSE_MIN_Q_SMALL_D if head_dim <= 64 else VARLEN_DENSE_MIN_Q
    return VARLEN_DENSE_MIN_Q is not None and least is not None and max_seqlen_q >= least


def varlen_splits(programs: int, max_seqlen_k: int, sm_count: int, max_seqlen_q: int = 1, head_dim: int = 128) -> int:
    """Parts per tile for a varlen grid of `programs` (tiles x sequences x head groups): the largest power of two up to
    VARLEN_SPLIT_MAX with parts x programs <= VARLEN_SPLIT_PROGRAMS x SMs (VARLEN_SPLIT_PROGRAMS_SMALL_D for head dims
    up to 64) and at least VARLEN_SPLIT_MIN_KEYS of the longest sequence's keys a part; 1 (no split) where that is
    below 2 or the call has more than VARLEN_SPLIT_MAX_Q queries per sequence. Session 36 (see VARLEN_SPLIT_PROGRAMS)
    set the budgets. Public: shapes and the GPU."""
    if VARLEN_SPLIT_FORCE is not None:
        return VARLEN_SPLIT_FORCE
    if max_seqlen_q > VARLEN_SPLIT_MAX_Q:
        return 1
    budget = (VARLEN_SPLIT_PROGRAMS_SMALL_D if head_dim <= 64 else VARLEN_SPLIT_PROGRAMS) * sm_count
    parts = 1
    while parts * 2 <= VARLEN_SPLIT_MAX and parts * 2 * programs <= budget \
            and max_seqlen_k >= parts * 2 * VARLEN_SPLIT_MIN_KEYS:
        parts *= 2
    return parts if parts >= 2 else 1


VARLEN = {d: cfg for d, (_, cfg) in SM90_SHORT.items()}
# ... and its grouped builds' ("_gqa": decode steps and drafts, the group's heads as a tile's rows)
VARLEN_GROUP = {d: VARLEN[d] for d in VARLEN_GROUP_HEAD_DIMS}
# ... and, at these head dims, the grouped builds without a window or soft-cap for calls whose every sequence's rows
# (max_seqlen_q x the group's heads) fit one tile of VARLEN_GROUP_FEW_ROWS: decode steps and short drafts, where a 64-row
# tile carries mostly padding (a group of 2-8 heads, 1-4 queries). 16 rows run the dots as mma.sync (HMMA) with about
# half the instructions and registers of the 64-row tiles' HGMMA loop (offline, D=256: 154 registers against 255 and 64
# bytes of stack). Session 37 (H100, decode_cfg_sweep.py, graph replay, 5 rounds, tensor cache_seqlens, against the
# 64x32 tiles): D=256 16 / 8 heads, 1 and 4 queries, x1.012-1.127 at 6 shapes; 32 / 4 heads, 1 query, x1.012 / x1.024;
# D=192 x1.050-1.193 at 6; with 32 rows (8 queries) x0.78-1.11, with 128 x0.58-0.84: hence one tile's rows. At D=64 /
# 128 16-row tiles read x0.97-1.08 (mostly within 2%): not there (every option would double the grouped binaries).
VARLEN_GROUP_FEW = {192: TileConfig(16, 64, 4, 3), 256: TileConfig(16, 64, 4, 3)}
VARLEN_GROUP_FEW_ROWS = 16
VARLEN_INTERPRETER = TileConfig(16, 16, 4, 1)


def varlen_few_rows(head_dim: int, rows: int, local: bool = False, softcap: bool = False,
                    interpreter: bool = False) -> bool:
    """Whether a grouped varlen call whose sequences bring at most `rows` rows (max_seqlen_q x group) runs the
    VARLEN_GROUP_FEW tiles. Public: the head dim, shapes and flags."""
    return not interpreter and head_dim in VARLEN_GROUP_FEW and rows <= VARLEN_GROUP_FEW_ROWS and not (local or softcap)


@dataclass(frozen=True)
class Variant:
    """One compiled kernel that the API can launch."""
    kernel: str                  # name of the @triton.jit function in dhpfa.kernels.triton_fwd
    config: TileConfig
    dtype: torch.dtype
    head_dim: int
    causal: bool
    # Data behind these pointer arguments is secret. Everything else (scalars, strides, the pointers
    # themselves) is public. Loads the auditor may treat as public would be listed in `public_loads`.
    secret_args: tuple = ("Q", "K", "V", "O", "LSE")
    public_loads: tuple = field(default=())

    def __post_init__(self):
        if self.config.split_kv > cluster_parts(self.config.cluster):  # the workspace holds partial states (secret);
            # the flags only say who arrived (a split whose parts are all one cluster meets in shared memory: neither;
            # with more parts the clusters' states meet in the workspace too: sm90_fwd CL_TREE, CLUSTER_N = 4 / 8)
            object.__setattr__(self, "secret_args", tuple(dict.fromkeys(self.secret_args + ("WS",))))
            object.__setattr__(self, "public_loads", tuple(dict.fromkeys(self.public_loads + ("FLAGS",))))

    @property
    def name(self) -> str:
        dt = {torch.float16: "fp16", torch.bfloat16: "bf16", torch.float32: "fp32"}[self.dtype]
        return f"{self.kernel}-{dt}-d{self.head_dim}-{'causal' if self.causal else 'full'}-{self.config.label()}"


def candidates(head_dim: int, sm90: bool, causal=None, packed=False):
    """(kernel, tiles) the dispatcher or the autotuner may run for this head dim, defaults first; the Gluon
    kernels only on sm_90. causal=False leaves out tiles that only causal calls run (TileConfig.unpaired). packed: also
    the packed grouped-query builds (TileConfig.pack), which run only calls of at most PACK_MAX_QUERIES queries
    (packed_variant): not the autotuner's, which times 16K-token shapes. causal=True leaves out tiles that only
    non-causal calls run (TileConfig.o_regs), causal=False those that only causal calls run (TileConfig.v_stage)."""
    out = [SM90_DEFAULTS[head_dim], SM90_SHORT[head_dim]]
    if sm90:
        out += [SM90_GLUON[head_dim]] if head_dim in SM90_GLUON else []
        out += [SM90_GLUON_BY_CAUSAL[(head_dim, c)] for c in (False, True) if (head_dim, c) in SM90_GLUON_BY_CAUSAL]
        out += [SM90_GLUON_QD[head_dim]] if head_dim in SM90_GLUON_QD else []
        out += [SM90_GLUON_SHORT[(head_dim, c)] for c in (False, True) if (head_dim, c) in SM90_GLUON_SHORT]
        out += [SM90_GLUON_LONG[head_dim]] if head_dim in SM90_GLUON_LONG else []
        out += list(SM90_TUNE_EXTRA.get(head_dim, ()))
        out += [SM90_FEW_PROGRAMS[(head_dim, c)] for c in (False, True) if (head_dim, c) in SM90_FEW_PROGRAMS]
        out += [SM90_FEW_PROGRAMS_MID[(head_dim, c)] for c in (False, True) if (head_dim, c) in SM90_FEW_PROGRAMS_MID]
        out += [SM90_FEW_PROGRAMS_LONG[(head_dim, c)] for c in (False, True) if (head_dim, c) in SM90_FEW_PROGRAMS_LONG]
        out += [table[(head_dim, c)] for table, _, _ in _SPLIT_KV_TABLES for c in (False, True)
                if (head_dim, c) in table]
        out += [table[(head_dim, c)] for table in (SM90_FEW_PROGRAMS_CLUSTER, SM90_FEW_PROGRAMS_CLUSTER_N64,
                                                   SM90_FEW_PROGRAMS_CLUSTER_2X, *SM90_FEW_PROGRAMS_CL_TREE.values(),
                                                   *SM90_FEW_PROGRAMS_CL4_TREE.values(),
                                                   *SM90_FEW_PROGRAMS_CL8_TREE.values(),
                                                   *SM90_FEW_PROGRAMS_CL16_TREE.values())
                for c in (False, True) if (head_dim, c) in table]
        if packed:
            out += [table[(head_dim, c)] for table, _, _ in _PACKED_SPLIT_KV_TABLES for c in (False, True)]
            out += [SM90_PACKED[(head_dim, c)] for c in (False, True)]
            out += [SM90_PACKED_PP[(head_dim, c)] for c in (False, True)]
    if causal is False:
        out = [(kernel, config) for kernel, config in out if not config.unpaired and not config.v_stage]
    if causal is True:
        out = [(kernel, config) for kernel, config in out if not config.o_regs]
    return list(dict.fromkeys(out))


def shipped_variants():
    """Every variant the GPU dispatcher or the autotuner can choose."""
    return [Variant(kernel, config, dt, d, c) for dt in DTYPES for d in HEAD_DIMS for c in (False, True)
            for kernel, config in candidates(d, sm90=True, causal=c, packed=True)]


def varlen_config(head_dim: int, interpreter: bool = False, group: bool = False, few: bool = False) -> TileConfig:
    """The varlen kernel's tiles for a head dim (the interpreter's own where it runs), of its grouped builds with group,
    their few-row tiles with few (varlen_few_rows): one place for the plan's grid, the variant and the page form's
    rule."""
    if interpreter:
        return VARLEN_INTERPRETER
    if few:
        return VARLEN_GROUP_FEW[head_dim]
    return (VARLEN_GROUP if group else VARLEN)[head_dim]


def varlen_variant(dtype: torch.dtype, head_dim: int, causal: bool, interpreter: bool = False, local: bool = False,
                   softcap: bool = False, split: bool = False, group: bool = False, paged: bool = False,
                   page_blocks: bool = False, few: bool = False) -> Variant:
    """The varlen kernel's variant for a call (public: dtype, head dim, flags). Its sequence offsets (CU_Q, CU_K) are
    public loads: the auditor treats values loaded through them as public, and everything else as before. local
    (a window) runs without the causal flag (the window's right side carries it). page_blocks (paged builds): one page
    index per key block, for page sizes that are multiples of the config's block_n (varlen_page_blocks). few: the
    grouped builds' few-row tiles (varlen_few_rows)."""
    if local and causal:
        raise ValueError("a local window carries causal masking as its right side (0): pass causal=False")
    if few and (not group or local or softcap or head_dim not in VARLEN_GROUP_FEW):
        raise ValueError(f"few: the grouped builds without a window or soft-cap at head dims {sorted(VARLEN_GROUP_FEW)}")
    config = varlen_config(head_dim, interpreter, group, few)
    if paged and (local or softcap) and not group:
        raise ValueError("paged caches (block_table) take a local window or soft-capping in the grouped builds only "
                         "(group=True)")
    if page_blocks and not paged:
        raise ValueError("page_blocks: a form of the paged builds (paged=True)")
    secret = ("Q", "K", "V", "O", "LSE") + (("WS_O", "WS_L") if split else ())
    return Variant(VARLEN_KERNELS[(local, softcap, split, group, paged, page_blocks)], config, dtype, head_dim, causal,
                   secret_args=secret, public_loads=("CU_Q", "CU_K") + (("BT",) if paged else ()))


# Mixed lengths on Hopper (session 30): calls of sequences of any lengths, without a paged cache (with a local window
# or soft-capping since session 31: VARLEN_SM90_KERNELS), whose longest sequence has at least
# VARLEN_SM90_MIN_Q[(head dim, causal)] queries, run the Gluon kernel attn_fwd_sm90_varlen (sm90_fwd: the
# two-consumer ping-pong tiles of the dense builds, 128-row query tiles, one tile per program, TMA descriptors that
# slide to each sequence). Head dims 96 and 192 run as 128 and 256
# (sm90_fwd.kernel_head_dim). Session 30 (H200, varlen_bench, graph replay, TFLOPS of useful work, against the portable
# kernel in the same rounds): 8 sequences of 64-4096 (max 4018) D=128 498 / 425, causal 450 / 364; D=256 510 / 270,
# causal 494 / 238; 57 sequences of 16-512 (max 511) D=128 246 / 244, causal 151 / 166; D=256 309 / 175, causal 198 /
# 116; 16 x 1024 at D=256 (the equal-length dense path's shape, run here as varlen) 605 / 238. D=64 lost everywhere
# (x0.65-0.92: the portable kernel's 64-row tiles waste fewer rows and its D=64 loop is cheap): not here. 64-key blocks
# (m128n64, 3 or 2 stages; causal diagonal tiles then skip their consumers' masked blocks) were no better at D=128 (run
# 5: 16 .. 512 252 / 247 against 247, causal 152 / 154 against 153; 8 of 64-4096 433 / 414 against 489, causal 404 /
# 380 against 434) and lost at D=64 (x0.59-0.75 of the portable kernel). D <= 64 and
# decode-like calls (few queries a sequence: grouped and split tiles) stay on the portable kernel. Public: dtype, head
# dim, flags, max_seqlen_q, the GPU.
VARLEN_SM90_KERNEL = "attn_fwd_sm90_varlen"
# Its builds per (local window, soft-capping) (session 31): one Gluon function, launched with WIN_LEFT / WIN_RIGHT and
# CAP_IN or without (sm90_fwd.varlen_launch_args); each name is a distinct binary.
VARLEN_SM90_KERNELS = {(local, cap): VARLEN_SM90_KERNEL + ("_local" if local else "") + ("_softcap" if cap else "")
                       for local in (False, True) for cap in (False, True)}
# ... and its paged-cache builds (session 32: block_table, pages of a multiple of the build's key block; session 33:
# with a local window and / or soft-capping too, which the portable kernel's paged builds take in their grouped form
# only, session 34), and every name of the kernel's builds.
VARLEN_SM90_PAGED_KERNELS = {key: name + "_paged" for key, name in VARLEN_SM90_KERNELS.items()}
VARLEN_SM90_PAGED_KERNEL = VARLEN_SM90_PAGED_KERNELS[(False, False)]
VARLEN_SM90_NAMES = frozenset(VARLEN_SM90_KERNELS.values()) | frozenset(VARLEN_SM90_PAGED_KERNELS.values())
_VARLEN_SM90_N128 = TileConfig(128, 128, 4, 2, split=2, pingpong=True)
_VARLEN_SM90_N64 = TileConfig(128, 64, 4, 2, split=2, pingpong=True)
VARLEN_SM90 = {96: _VARLEN_SM90_N128, 128: _VARLEN_SM90_N128, 192: _VARLEN_SM90_N64, 256: _VARLEN_SM90_N64}
# Queries in the longest sequence from which a call takes it, per (head dim, causal) (None: never, for comparison).
# Session 30 run 3 (the forced Hopper build against the portable kernel, TFLOPS; lengths drawn from 16 .. N): D=128 N =
# 512 (max 511) 250 / 248, causal 153 / 167; N = 1024 (max 1007) 357 / 329, causal 244 / 255; N = 2048 (max 1993) 442 /
# 359, causal 352 / 319; 8 of 64-4096 509 / 397, causal 451 / 358. D=96: 199 / 195, 119 / 126; 283 / 250, 194 / 191;
# 361 / 273, 280 / 243; 422 / 283, 368 / 271. D=256 from 16 .. 256 (112 sequences, max 254): 216 / 125, causal 122 / 74.
# Run 5 again (64-key blocks, below: no better): D=128 16 .. 2048 causal 352 against 303 / 324, 16 .. 1024 244 against
# 240 / 250 (the portable kernel through the API and directly): causal from 1024.
VARLEN_SM90_MIN_Q = {(96, False): 512, (128, False): 512, (96, True): 1024, (128, True): 1024,
                     (192, False): 128, (192, True): 128, (256, False): 128, (256, True): 128}
# Keys well past the queries, or a paged cache (session 33, H100, scripts/paged_rule_sweep.py, graph replay, x = portable
# / Hopper through the API, 8 sequences, caches of 4,096 rows in pages of 256 or contiguous): prefill chunks against
# caches of chunk .. 4,096 keys, D=128 (32 / 8 heads) causal or not, from 128 queries x1.13-1.29 contiguous and
# x1.22-1.40 paged (64 queries: x0.79-0.92, half-empty 128-row tiles); D=256 (16 / 2) from 64 queries x1.22-1.34; D=96
# from 128 x1.17-1.53 (64: x0.81-0.95); D=192 from 64 x1.26-1.37; soft-capped (30) D=128 from 128 x1.19-1.39, D=256
# from 64 x1.29-1.38. Caches holding just the chunk (keys = queries, causal): D=128 paged x1.02-1.08 from 128 queries
# (the portable paged kernel pays for its page reads), contiguous x0.95-1.01 from 128 to 512 (x0.73 at 64); D=96
# x0.99-1.15 from 128; D=256 / 192 64 queries x0.93-1.02. Caches of exactly 4 x the chunk (D=128, 128-1024 queries):
# contiguous x1.05-1.37, paged x1.11-1.56; 2 x: contiguous causal x0.96 / 0.99 at 128 / 256 queries, the rest
# x1.03-1.31. So a paged call, or one whose max_seqlen_k is at least VARLEN_SM90_LONG_K times its max_seqlen_q, runs
# Hopper from VARLEN_SM90_MIN_Q_LONG_K queries. flash_attn_with_kvcache's max_seqlen_k is the cache's capacity, not its
# fill: a chunk into a mostly empty long cache takes Hopper too (worst measured: x0.95, contiguous causal, keys =
# queries). Unpaged calls with a local window: the window, not max_seqlen_k, bounds their keys, so the long-key rule
# takes them only with windows of VARLEN_SM90_LONG_WINDOW keys or more (session 34; session 33 kept them all on
# VARLEN_SM90_MIN_Q); paged ones take VARLEN_SM90_MIN_Q_LONG_K whatever the window, since the portable kernel would
# first need their pages copied (api._gather_pages: a Mistral chunk of 512 queries x1.29 the contiguous call's time).
VARLEN_SM90_MIN_Q_LONG_K = {(96, False): 128, (96, True): 128, (128, False): 128, (128, True): 128,
                            (192, False): 64, (192, True): 64, (256, False): 64, (256, True): 64}
VARLEN_SM90_LONG_K = 4
# A windowed call against a long cache takes VARLEN_SM90_MIN_Q_LONG_K too where its window reaches at least this many
# keys (left + right + 1, causal: right 0; an unbounded side: every key). Session 33's sweep (call 9, x = portable /
# Hopper, 4,096-key caches): a (1023, 0) window at D=128 x1.01-1.03 from 128 queries, x1.11-1.24 from 256, D=256
# x1.67-1.92 from 128; call 16: a Mistral chunk of 512 (window 4095) 525.9 us on the portable kernel against 421.4 on the
# Hopper paged build. Smaller windows were not measured: they keep VARLEN_SM90_MIN_Q.
VARLEN_SM90_LONG_WINDOW = 1024
VARLEN_SM90_MAX_TILES = 65535  # query tiles of the longest sequence: the grid's second axis
# Windows and soft-caps (session 31) take the same rule: with MUFU.TANH (sm90_fwd._tanh_mufu) the soft-capped
# builds beat the portable kernel at every head dim measured (window_bench, H200: D=128 mixed 64-4096 causal 390 / 246,
# with a 1,023 window 338 / 229; with the exponential form they had trailed it there, 279 / 263 and 176 / 229).


def varlen_sm90(head_dim: int, max_seqlen_q: int, causal: bool, max_seqlen_k: int = None, paged: bool = False,
                local: bool = False, window_keys: int = None) -> bool:
    """Whether a varlen call on sm_90 runs attn_fwd_sm90_varlen: from VARLEN_SM90_MIN_Q queries in its longest
    sequence; a paged call (windowed or not: the other way for a windowed one is a copy of its pages,
    api._gather_pages), or keys at least VARLEN_SM90_LONG_K x the queries, without a local window or with one that
    reaches at least VARLEN_SM90_LONG_WINDOW keys (window_keys: left + right + 1; None: a side unbounded), from
    VARLEN_SM90_MIN_Q_LONG_K (whichever is less); soft-capped calls take the same rule. VARLEN_SM90_MIN_Q None: never
    (the A/B scripts' switch). Public: shapes, flags and the window."""
    key = (head_dim, bool(causal))
    least = VARLEN_SM90_MIN_Q.get(key) if VARLEN_SM90_MIN_Q is not None else None
    if least is None:
        return False
    wide = not local or window_keys is None or window_keys >= VARLEN_SM90_LONG_WINDOW
    if key in VARLEN_SM90_MIN_Q_LONG_K and (paged or (wide and max_seqlen_k is not None
                                                       and max_seqlen_k >= VARLEN_SM90_LONG_K * max_seqlen_q)):
        least = min(least, VARLEN_SM90_MIN_Q_LONG_K[key])
    return max_seqlen_q >= least


def varlen_sm90_variant(dtype: torch.dtype, head_dim: int, causal: bool, local: bool = False,
                        softcap: bool = False, paged: bool = False) -> Variant:
    """attn_fwd_sm90_varlen's variant: its offsets (CU_Q, CU_K) are public loads, as the portable kernel's. local (a
    window) runs without the causal flag (the window's right side carries it), as varlen_variant's; softcap: the
    soft-capping build (VARLEN_SM90_KERNELS); paged: the paged-cache builds (VARLEN_SM90_PAGED_KERNELS, with or
    without a window and soft-cap; their block table BT a public load too)."""
    if local and causal:
        raise ValueError("a local window carries causal masking as its right side (0): pass causal=False")
    names = VARLEN_SM90_PAGED_KERNELS if paged else VARLEN_SM90_KERNELS
    return Variant(names[(bool(local), bool(softcap))], VARLEN_SM90[head_dim], dtype, head_dim, causal,
                   public_loads=("CU_Q", "CU_K") + (("BT",) if paged else ()))


def varlen_sm90_pages(head_dim: int, page_size: int) -> bool:
    """Whether a paged call of this page size can run the Hopper paged build: pages hold whole key blocks of its
    config (VARLEN_SM90). Public: the head dim and the page size."""
    return head_dim in VARLEN_SM90 and page_size % VARLEN_SM90[head_dim].block_n == 0


def varlen_page_blocks(head_dim: int, page_size: int, interpreter: bool = False, group: bool = False,
                       few: bool = False) -> bool:
    """Whether a paged call with this page size runs the per-block form (its pages hold whole key blocks of the varlen
    config: of the grouped builds with group, their few-row tiles with few). Public: the head dim, the page size and
    the grouping."""
    config = varlen_config(head_dim, interpreter, group, few)
    return VARLEN_PAGE_BLOCKS and page_size % config.block_n == 0


# attn_varlen_combine's tiles: block_m rows a program, block_n parts read at once. Calls of more than
# VARLEN_COMBINE_FEW_PARTS parts (small grids: up to VARLEN_SPLIT_MAX = 16) read 16 at once, one round of loads, about
# 64 fp32 values a thread for the [parts, rows, head dim] tile (VARLEN_COMBINE_TILES); calls of fewer parts (large
# grids, where the 16-part tile's 150-210 registers cost occupancy: session 36 call 15, B=64 at D=64, 512 programs, 2
# parts, 11.5 us) read 4 at once (VARLEN_COMBINE_TILES_FEW). The interpreter's reads 2 parts at once, so the tests'
# 3-part splits run its loop over groups of parts.
# (4 rows at every head dim: at D <= 64, 8 rows took 157-208 registers offline, 4 rows 64-128.)
VARLEN_COMBINE_TILES = {64: TileConfig(4, 16, 4, 1), 128: TileConfig(4, 16, 4, 1), 256: TileConfig(4, 16, 8, 1)}
VARLEN_COMBINE_TILES_FEW = {64: TileConfig(4, 4, 4, 1), 128: TileConfig(4, 4, 4, 1), 256: TileConfig(4, 4, 8, 1)}
VARLEN_COMBINE_FEW_PARTS = 4
VARLEN_COMBINE_INTERPRETER = TileConfig(16, 2, 4, 1)


def varlen_combine_variant(dtype: torch.dtype, head_dim: int, interpreter: bool = False, group: bool = False,
                           splits: int = VARLEN_SPLIT_MAX) -> Variant:
    """attn_varlen_combine for a split varlen call of `splits` parts (its tiles: VARLEN_COMBINE_TILES, or
    VARLEN_COMBINE_TILES_FEW up to VARLEN_COMBINE_FEW_PARTS parts, by the padded head dim)."""
    padded = max(64, 1 << (head_dim - 1).bit_length())
    tiles = VARLEN_COMBINE_TILES_FEW if splits <= VARLEN_COMBINE_FEW_PARTS else VARLEN_COMBINE_TILES
    config = VARLEN_COMBINE_INTERPRETER if interpreter else tiles[padded]
    return Variant(VARLEN_COMBINES[group], config, dtype, head_dim, False, secret_args=("WS_O", "WS_L", "O", "LSE"),
                   public_loads=("CU_Q",))


def varlen_variants():
    """Every varlen variant the API can launch on a GPU (audited with shipped_variants): per dtype and head dim, causal
    or not, soft-capped or not, with a local window (not causal) or not, split across programs or not; the paged-cache
    builds (block_table), split or not, grouped or not, in both page forms, and the grouped ones with a window and / or
    soft-cap too; the grouped few-row tiles (VARLEN_GROUP_FEW), unpaged and paged, split or not; the combine
    kernel of the split calls per dtype and head dim; and the Hopper builds (VARLEN_SM90) per dtype, head dim, causal
    flag and soft-capping, with a local window (not causal) or not, and their paged-cache builds alike."""
    return [varlen_variant(dt, d, c, local=local, softcap=cap, split=split, group=group) for group in (False, True)
            for split in (False, True) for local in (False, True) for cap in (False, True) for dt in DTYPES
            for d in (VARLEN_GROUP_HEAD_DIMS if group else HEAD_DIMS)
            for c in ((False,) if local else (False, True))] + \
        [varlen_variant(dt, d, c, split=split, group=group, paged=True, page_blocks=blocks) for blocks in (False, True)
         for group in (False, True) for split in (False, True) for dt in DTYPES
         for d in (VARLEN_GROUP_HEAD_DIMS if group else HEAD_DIMS) for c in (False, True)] + \
        [varlen_variant(dt, d, c, local=local, softcap=cap, split=split, group=True, paged=True, page_blocks=blocks)
         for local, cap in ((True, False), (False, True), (True, True)) for blocks in (False, True)
         for split in (False, True) for dt in DTYPES for d in VARLEN_GROUP_HEAD_DIMS
         for c in ((False,) if local else (False, True))] + \
        [varlen_variant(dt, d, c, split=split, group=True, paged=paged, page_blocks=blocks, few=True)
         for paged, blocks in ((False, False), (True, False), (True, True)) for split in (False, True) for dt in DTYPES
         for d in VARLEN_GROUP_FEW for c in (False, True)] + \
        [varlen_combine_variant(dt, d, group=group, splits=parts) for parts in (VARLEN_SPLIT_MAX, VARLEN_COMBINE_FEW_PARTS)
         for group in (False, True) for dt in DTYPES for d in (VARLEN_GROUP_HEAD_DIMS if group else HEAD_DIMS)] + \
        [varlen_sm90_variant(dt, d, c, local=local, softcap=cap, paged=paged) for paged in (False, True)
         for local in (False, True) for cap in (False, True) for dt in DTYPES for d in VARLEN_SM90
         for c in ((False,) if local else (False, True))]


# Decode with the GEMMs swapped (kernels/sm90_decode.py, session 54): one query per sequence, 2-8 query heads a
# key/value head (NQ = 8 columns), D = 64 / 128, run as S^T = K Q^T (keys on the WGMMA's M) and O^T = V^T P^T, each
# (sequence, key/value head) pair split into parts of whole 128-key blocks, merged by attn_varlen_combine. The forward
# kernels' packed decode tiles put the group's rows on an M of 64 (a 128-key block costs ~1,900 cycles whatever the
# rows: session 50's stamps), which limits long-context decode of few sequences; with keys on M a block costs its loads.
# Session 54 (H200, graph replay, 7 interleaved rounds, us). Call 5 (this kernel at 8 / 16 parts against the API before
# and cuDNN): (1,32,8,1,S,128) 16,384 keys 23.69 / 24.07 / 23.11, 32,768 37.65 / 42.16 / 37.42, 65,536 66.61 / 77.98 /
# 66.60; D=64 16,384 14.16 / 16.22 / 14.15, 65,536 36.94 / 40.14 / 36.08; (2,32,8,1,S) D=64 4,096 10.50 (8 parts) /
# 11.86 / 9.59, D=128 16,384 38.14 / 42.60 / 37.24; losses (4,32,8,1,16384,128) 69.93 / 66.15 (8 parts: 256 CTAs) and
# (1,32,8,1,4096,128) 11.24 / 10.44. Call 7 (`rule_check.py --set swap54`: the API / SWAP_DECODE off / cuDNN): 8 pairs
# x 16 parts (1,32,8,1,S,128) 16,384 23.60 / 24.54 / 23.21, 65,536 67.25 / 78.61 / 67.39, 131,072 124.75 / 150.36 /
# 124.89; (1,64,8,1,32768,128) 38.06 / 42.42 / 37.89; 4 pairs (1,32,4,1,32768,128) 24.03 / 25.84 / 24.34,
# (1,28,4,1,65536,128) 38.62 / 45.48 / 38.75; 16 pairs x 8 (2,32,8,1,65536,128) 124.14 / 150.03 / 124.01, D=64 8,192
# 14.64 / 15.84 / 13.91; but 2 pairs (1,16,2,1,65536,128) 37.69 / 27.05 / 23.57 and 15 pairs x 8 (3,40,5,1,16384,128)
# 37.40 / 34.15 / 36.07 lost: with 2 pairs the forward kernels run 32 parts as clusters of sixteen (this kernel at 32 /
# 64 parts 26.18 / 30.30 in call 8: even), and up to 15 pairs they run 8 parts as clusters of eight (FEW_ROWS_QUAD_CTAS),
# which stream faster than this kernel's 120 CTAs. So (session 54's rule; session 55's below): 16 parts for 4-8 pairs,
# 8 parts only where the forward kernels' clusters of eight do not fit (16 pairs on 132 SMs); from
# SWAP_DECODE_MIN_KEYS keys (D=64 with 8 parts from 4,096, the one shorter case measured; session 59: see
# SWAP_DECODE_LEAST_KEYS).
# Off by default at the end of session 54 (its API path had launched both kernels through Triton's JIT: an eager decode
# call 141-232 us of host time against 46-68 on the forward kernels, call 10, scripts/decode_host_time.py). Session 55:
# the plan keeps both launchers as one (sm90_decode.Kept: one workspace allocation, bases passed as ints); on by
# default after a GPU run of the decode tests, decode_host_time.py and the whole test_gpu.py with it on (perf-log,
# session 55). (api._PLANS.clear() after changing it.)
SWAP_DECODE = True
SWAP_DECODE_DIMS = (64, 128)
SWAP_DECODE_MAX_GROUP = 16
# Session 66: groups of 9-16 (Llama-3.1-405B's 128 / 8, Qwen3-235B's 64 / 4) run NQ = 16 builds (variants.decode_nq) of
# the kernels named here: the split merge, the stream and the whole-pair builds. The merged build stages every part's
# state (MAX_PARTS x NQ x D fp32) in shared memory: 264,192 bytes at NQ = 16 (D=128), past the 232,448 an SM has
# (offline compile, and call 7 on the GPU); the plain build's combine path is off by default (SWAP_DECODE_MERGE). Calls
# whose rule gives those kernels stay on the forward kernels. Call 8 (rule_check --set g16b, H200, graph replay, 5
# rounds, us: the forward kernels / NQ = 16 / cuDNN): (1,64,4,1,4096,128) 7.62 / 6.99 / 8.10, 16,384 15.80 / 14.66 /
# 16.57, (40,64,4,1,4096,128) 99.65 / 86.26 / 82.68, 16,384 377.95 / 312.71 / 315.87, (1,64,4,1,4096,64) 6.51 / 6.34 /
# 6.81, 16,384 12.10 / 10.19 / 11.19, (40,64,4,1,4096,64) 52.16 / 46.80 / 45.05, 16,384 192.91 / 168.31 / 165.97,
# (1,128,8,1,4096,128) 10.63 / 9.55 / 12.06, 16,384 24.57 / 21.69 / 24.45 (x1.03-1.21). Call 9 through the API (rule_check
# --set s66c, 5 rounds, us: the API / SWAP_DECODE_MAX_GROUP = 8 / cuDNN): x1.088-1.213 in the 10 cells that changed,
# e.g. (40,64,4,1,16384,128) 307.97 / 373.59 / 309.86, (1,128,8,1,16384,128) 21.71 / 25.03 / 24.35; 16 pairs (4
# sequences of 4 key/value heads: the merged build's 8 parts, so the forward kernels) still x0.87-0.99 of cuDNN.
# Session 67: the merged build at NQ = 16 stages half the parts (swap_decode_merge_build: 16 at D=128, 32 at D=64; the
# same staged bytes as at NQ = 8), enough for every call it takes (fewer parts than the split build's least), so it
# joins the NQ = 16 kernels.
SWAP_DECODE_NQ16_KERNELS = ("attn_decode_sm90_split", "attn_decode_sm90_stream", "attn_decode_sm90_merged")
# Session 66: groups of one (MHA decode: one query a sequence, H = H_KV) take the swap kernels under the same rules as
# grouped heads (the kernels read G as an argument; the NQ = 8 columns cost the same for G = 1 as for G = 4 or 8, and a
# pair's K / V bytes are the same). api.mha_decode gives such calls G = 1. Set 2 to leave them to the forward kernels.
SWAP_DECODE_MIN_GROUP = 1
SWAP_DECODE_MIN_PAIRS = 4  # (sequence, key/value head) pairs, at least
SWAP_DECODE_MIN_KEYS = 16384
# Session 59: 4 parts for 31-33 pairs (batches of four sequences of 8 key/value heads: 128 CTAs), where no part count
# above filled the SMs and the forward kernels' clusters of four ran them. Call 2 (scripts/decode_batch59.py, H200,
# graph replay, us: the API then / the merged kernel at 2 / 4 / 8 parts / cuDNN): (4,32,8,1,S,64) 1,024 keys 7.76 /
# 7.20 / 5.99 / 8.95 / 7.10, 4,096 14.12 / 17.12 / 12.78 / 16.87 / 13.65, 16,384 37.77 / 52.69 / 35.50 / 39.57 / 35.86,
# (8,28,4,1,4096,64) 14.02 / 17.07 / 12.79 / - / 13.85; D=128 1,024 10.26 / 9.57 / 8.75 / 12.32 / 10.68, 4,096 21.80 /
# 21.45 / 20.61 / 24.33 / 22.58, 16,384 64.88 / 67.02 / 63.99 / 67.67 / 66.25, (8,28,4,1,4096,128) 21.82 / 21.69 /
# 20.86 / - / 22.52. One part for 128 pairs and 512 (16 / 64 sequences) did not win (D=128 (16,32,8,1,S) 21.01 / 21.04
# at 1,024 keys, 237.22 / 237.14 at 16,384; D=64 12.21 / 12.74; 512 pairs 68.34 / 73.51): left to the forward kernels.
# Call 3 (rule_check --set s59, graph replay, 9 rounds, us: the API with 4 parts / the rule before / cuDNN):
# (4,32,8,1,S,64) 1,024 keys 5.87 / 7.41 / 6.95, 2,048 8.91 / 10.06 / 9.71, 4,096 12.97 / 14.54 / 14.11, 16,384 36.32 /
# 38.89 / 37.17, 65,536 125.29 / 132.77 / 125.46; D=128 1,024 8.74 / 10.35 / 11.45, 4,096 21.29 / 22.42 / 22.97,
# 65,536 242.36 / 243.43 / 244.15; (8,28,4), (11,24,3), (31,8,1) x 4,096 keys x1.05-1.11 over the rule before at both
# head dims. And the key thresholds (decode_batch59.py --edges, us: the API / the swap kernel / cuDNN): 32 pairs x 4
# parts at 512 keys D=64 5.82 / 5.21 / 6.21, 768 6.54 / 5.78 / 6.82, D=128 512 6.87 / 6.00 / 8.04, 768 8.24 / 6.99 /
# 8.67; 16 pairs x 8 D=64 1,024 6.14 / 5.19 / 5.98, D=128 1,024 7.78 / 5.98 / 7.41, 4,096 15.38 / 13.16 / 15.14, 8,192
# 24.50 / 21.02 / 23.05; 8 pairs x 16 D=64 1,024 5.38 / 4.93 / 5.78, 4,096 7.83 / 6.36 / 7.86, 8,192 12.20 / 9.02 /
# 10.20, D=128 1,024 6.29 / 5.52 / 6.97, 4,096 10.21 / 8.84 / 11.18, 8,192 15.18 / 12.62 / 15.53. Session 54's 16,384
# keys predate the merge in the launch (sessions 55-58): 8 and 16 parts now run from 1,024 keys, 4 parts from 512.
# {(head dim, parts): the fewest keys} where it differs from SWAP_DECODE_MIN_KEYS
SWAP_DECODE_LEAST_KEYS = {(64, 16): 1024, (128, 16): 1024, (64, 8): 1024, (128, 8): 1024, (64, 4): 512, (128, 4): 512,
                          (64, 32): 1024}
# Session 60: D=64's 32 parts (4 pairs) from 1,024 keys too (decode_batch59.py --next, decode_even60.py --fill, us: the
# API then (the forward kernels' clusters) / 32 parts / cuDNN): (1,32,4,1,S,64) 1,024 5.11 / 4.72 / 5.69, 2,048 6.22 /
# 5.28 / 6.59, 4,096 6.64 / 5.23 / 6.69, 8,192 8.22 / 6.07 / 8.82, 12,000 10.45 / 7.54 / 10.31.
# Session 55 call 3 (scripts/decode_pairs55.py, H200, graph replay, us: the forward kernels / 16 parts / 32 parts /
# cuDNN): with 5-7 pairs the 80-112 CTAs of 16 parts lost at D=128 ((1,40,5,1,32768,128) 26.59 / 27.95 / 33.56 /
# 27.28, (1,48,6,..) 28.51 / 33.48 / 35.68 / 31.40, (1,56,7,1,16384,128) 19.46 / 22.13 / 25.84 / 21.80) and were even
# at D=64 (19.66 / 19.42 / 19.29 at 5 pairs; 1-3% ahead at 6-7); D=64 with 4 pairs lost at 16 parts (64 CTAs) but won
# at 32 (128 CTAs): (1,32,4,1,S,64) 16,384 12.48 / 12.73 / 11.79 / 11.04, 32,768 18.65 / 19.02 / 15.90 / 15.49,
# 65,536 26.94 / 31.30 / 24.02 / 23.06; D=128 with 4 pairs wins at 16 parts (call 2: (1,32,4,1,32768,128) 23.90 against
# 26.35; (1,32,4,1,16384,128) 15.90 / 16.06, 32 parts 17.46). So the kernel runs where its CTAs fill the SMs (as 8 x 16,
# 16 x 8 and, at D=64, 4 x 32 do: every cell measured ahead) and, at D=128, where 16 parts fill half of them (4 pairs).
SWAP_DECODE_PARTS = {128: (16, 8, 4), 64: (32, 16, 8, 4)}  # part counts tried, most first
SWAP_DECODE_HALF_FILL = {128: 16}
SWAP_DECODE_CONFIG = TileConfig(8, 128, 4, 3)  # NQ query columns, BLOCK_N keys, 4 warps, STAGES (launch_args' defaults)
SWAP_DECODE_KERNEL = "attn_decode_sm90"
# Session 55: the pair's parts merged inside the launch (sm90_decode.attn_decode_sm90_merged:
# the programs that find every part done merge them), so a decode call is one kernel; call 7 timed the combine's
# second launch at 3.1-4.5 us a call in graph replay. Call 9 (rule_check --set merge55, H200, graph replay, us: merged
# / the combine / cuDNN): D=128 ahead in every cell, (1,32,8,1,S,128) 16,384 21.71 / 23.21 / 23.31, 65,536 64.98 /
# 66.95 / 67.20, 131,072 122.31 / 123.88 / 124.55, (2,32,8,1,16384,128) 36.05 / 37.53 / 36.97, (1,32,4,1,32768,128)
# 22.76 / 23.76 / 24.44; D=64 behind (its build for 32 parts holds 255 registers): (2,32,8,1,4096,64) 11.55 / 10.06,
# (1,32,8,1,16384,64) 15.72 / 14.31, (1,32,4,1,16384,64) 12.08 / 11.89. So SWAP_DECODE_MERGE_DIMS = (128,). Decode
# GPU tests 98 passed and memcheck / synccheck clean with it on (calls 8-9). On by default since session 56 (call 1,
# scripts/session56_run1.sh, with it on: the whole test_gpu.py 2,983 passed / 24 skipped; counters over 8 rounds at
# (1,32,1,128,32768,8) and (2,32,1,128,16384,8): no class flagged, largest |t| 3.2 / 1.8 (work counts differ between
# ncu's replays as two programs may both merge a pair: a timing race, as spin-waits); dudect |t| <= 1.7 / 1.8). Call 4
# again on the builds below (the merge in rounds): 8 / 6 rounds at (1,32,1,128,32768,8), (2,32,1,64,4096,8),
# (1,16,1,128,65536,2), (1,32,1,64,32768,4): no class flagged (largest |t| 3.2), dudect |t| <= 1.8.
# Builds merge up to SWAP_DECODE_MERGE_PARTS parts.
SWAP_DECODE_MERGE = True
SWAP_DECODE_MERGED_KERNEL = "attn_decode_sm90_merged"
# Session 56: the merge in rounds of CHUNK parts with 16-byte loads (sm90_decode._merge_parts; the first form, every
# part at once a column a thread, held 255 registers and 3,304 SASS instructions at D=64: now 144 / 1,688). Call 2
# (scripts/decode_merge56.py, H200, graph replay, us: combine / merged CHUNK 8 / CHUNK 16 / cuDNN): D=64 now ahead of
# the combine and cuDNN in every cell: (2,32,8,1,4096,64) 10.38 / 9.14 / 9.28 / 9.62, 8,192 14.55 / 13.22 / 13.49 /
# 13.92, (1,32,8,1,16384,64) 14.56 / 13.74 / 13.63 / 14.50, (1,32,4,1,16384,64) 11.55 / 10.94 / 9.91 / 11.04, 32,768
# 16.09 / 15.28 / 14.66 / 15.57; D=128 CHUNK 8 (CHUNK 16 spills there): (1,32,8,1,16384,128) 23.89 / 22.51 / 23.07 /
# 23.88, 65,536 68.86 / 67.73 / 68.25 / 68.47, (2,32,8,1,16384,128) 39.01 / 36.73 / 38.37 / 38.04, (1,32,4,1,32768,128)
# 24.70 / 23.59 / 24.19 / 24.79. So both head dims merge, D=64 in rounds of 16, D=128 of 8. Two pairs at D=128 merge
# 32 parts (SWAP_DECODE_TWO_PAIRS).
SWAP_DECODE_MERGE_DIMS = (64, 128)
# Session 57 call 1 (scripts/session57_run1.sh, decode_merge_prefetch.py, H200, graph replay, us: the builds above /
# the next round's loads issued before this round's sums (PREFETCH) / cuDNN): D=64 rounds of 16 (2,32,8,1,4096,64)
# 9.28 / 9.23 / 9.26, (1,32,8,1,16384,64) 13.37 / 13.31 / 14.37, (1,32,4,1,16384,64) 10.44 / 10.39 / 10.96, 65,536
# 22.53 / 22.21 / 23.13; D=128 rounds of 8 (1,32,8,1,16384,128) 22.26 / 21.97 / 23.04, (2,32,8,1,16384,128) 36.42 /
# 36.53 / 37.93, (1,32,4,1,32768,128) 23.44 / 23.05 / 24.28, (1,16,2,1,65536,128) 25.16 / 24.49 / 23.86. Two pairs
# at D=64 merged in 64 parts, rounds of 16 (the combine / without / with PREFETCH / cuDNN): (1,16,2,1,65536,64) 18.99 /
# 16.64 / 15.82 / 16.40, 131,072 27.17 / 24.85 / 23.96 / 24.88. So D=64 builds merge up to 64 parts.
# Calls 3-4 (decode_two_pairs57.py, decode_stamps57.py): at (1,16,2,1,65536,128) the swap kernel alone (no merge)
# read 20.05 us against 25.59 merged; stamps put the merging program's arrival at 2,500-3,900 cycles and its merge at
# 6,400 (32 parts at D=128, four rounds of 8: about 1,600 a round, registers holding the bytes in flight). So the
# merge from shared memory (ASYNC: every round's states by cp.async at once, each round merged as it lands; rounds
# past the grid's parts skipped). Call 6 (decode_async57.py, graph replay, us: PREFETCH / ASYNC / cuDNN): D=64 rounds
# of 16 (2,32,8,1,4096,64) 10.12 / 9.77 / 10.11, (1,32,8,1,16384,64) 13.67 / 13.43 / 14.76, (1,32,4,1,16384,64)
# 10.16 / 10.06 / 11.27, (1,16,2,1,65536,64) 15.98 / 14.85 / 16.35, 131,072 24.14 / 22.91 / 25.14; D=128 rounds of 8
# (1,32,8,1,16384,128) 22.57 / 21.88 / 23.16, (2,32,8,1,16384,128) 36.28 / 36.35 / 37.28, (1,32,4,1,32768,128)
# 23.51 / 23.08 / 24.63, (1,16,2,1,65536,128) 24.65 / 23.81 / 23.78, 131,072 39.89 / 38.91 / 38.39. Merge 4,658
# cycles there (stamps). Timing probes of the arrival (no SC fence; a relaxed store) saved 0-600 cycles of it.
SWAP_DECODE_MERGE_PARTS = {64: 64, 128: 32}
SWAP_DECODE_MERGE_CHUNK = {64: 16, 128: 8}  # parts a round of the merge (sm90_decode._merge_parts)
SWAP_DECODE_MERGE_PREFETCH = {64: False, 128: False}  # a round's loads issued before the last round's sums
SWAP_DECODE_MERGE_ASYNC = {64: True, 128: True}  # the states through shared memory by cp.async (PREFETCH unused)
# Session 58: the arrival's done-words read a word a thread past a warpgroup barrier (sm90_decode._done_asm wide)
# rather than all by thread 0 (session 57 call 11: thread 0's loads ~800 cycles at 16 parts, ~1,500 at 64). Call 1
# (decode_wide58.py, graph replay, us: wide / thread 0 / cuDNN): (2,32,8,1,4096,64) 8.37 / 8.88 / 9.64,
# (1,16,2,1,65536,64) 14.05 / 14.76 / 16.15, (1,32,8,1,16384,128) 21.37 / 21.94 / 23.28, (1,16,2,1,65536,128) 22.71 /
# 23.57 / 23.58, (1,14,2,1,262144,128) 67.97 / 68.72 / 68.14: 0.4-0.85 us in all eight cells; the merging programs'
# arrival 2,201 cycles against 3,673 at (1,16,2,1,65536,128).
SWAP_DECODE_MERGE_WIDE = {64: True, 128: True}
# Session 58: the merge spread over the pair's first SWAP_DECODE_SPLIT[d] programs, a slice of the head dim each
# (sm90_decode.attn_decode_sm90_split, launched cooperative), where a call has from SWAP_DECODE_SPLIT_MIN_PARTS parts
# to the merged build's SWAP_DECODE_MERGE_PARTS (call 1's stamps: one program's merge of 32 parts at D=128 ~4,700
# cycles, 64 at D=64 ~4,300, against an arrival of ~1,800-1,900). Calls 3-4 (decode_split_ab58.py, graph replay, us;
# call 4: 8 slices / 16 / the one-program merge / cuDNN): (1,14,2,1,262144,128) 66.73 / 69.43 / 68.47 / 68.29,
# (1,16,2,1,65536,128) 21.89 / 22.00 / 22.78 / 23.68, (1,32,4,1,32768,128) 21.93 / 21.97 / 22.08 / 24.37,
# (1,32,8,1,16384,128) 21.25 / 20.94 / 21.44 / 23.20; D=64 (1,16,2,1,65536,64) 13.39 / 13.37 / 14.36 / 16.04,
# (1,32,4,1,16384,64) 8.95 / 8.84 / 9.06 / 11.12, (1,14,2,1,262144,64) 36.84 / 36.50 / 37.48 / 41.30; at 8 parts (every
# program a slice's) the split lost: (2,32,8,1,4096,64) 10.21 against 9.23, (2,32,8,1,16384,128) 36.36 against 36.09.
# Call 3: the cooperative attribute costs 0.1-0.35 us (the split without it, on an idle GPU), a nanosleep backoff
# between polls nothing. So 8 slices at D=128 (16 lost 2.7-3.4 us at 262,144 keys in both calls), 16 at D=64, from 16
# parts.
SWAP_DECODE_SPLIT = {64: 16, 128: 8}
SWAP_DECODE_SPLIT_MIN_PARTS = 16
# Call 6 (decode_split_ab58.py --rows, us: the slice's warps along the query heads / along the parts / the one-program
# merge / cuDNN): D=128 (1,14,2,1,262144,128) 65.53 / 66.37 / 68.22 / 67.24, (1,16,2,1,65536,128) 21.18 / 21.68 / 22.70
# / 23.43, (1,32,4,1,32768,128) 21.19 / 21.73 / 22.15 / 24.63, (1,32,8,1,16384,128) 20.56 / 20.93 / 21.24 / 23.37;
# D=64 (1,16,2,1,65536,64) 13.29 / 13.07 / 14.12 / 16.28, (1,32,4,1,16384,64) 9.34 / 9.31 / 9.59 / 11.34,
# (1,14,2,1,262144,64) 35.91 / 35.78 / 36.64 / 41.37 (16 lanes along the parts there: four shuffle levels a sum).
SWAP_DECODE_SPLIT_WARP_ROWS = {64: False, 128: True}  # sm90_decode._merge_slice's WARP_ROWS
SWAP_DECODE_SPLIT_KERNEL = "attn_decode_sm90_split"
# Session 60: parts of whole blocks whose counts differ by at most one (sm90_decode.decode_parts(even), _run_part), so a
# call keeps the parts its rule gave at any key count, where the grid holds at most half the SMs (swap_decode_even).
# Session 54's form gives every part the same whole blocks and runs as many parts as those cover: 2,049 keys in 16
# parts of 128-key blocks ran 9 parts, 4,097 ran 11 and 8,193 ran 13, below SWAP_DECODE_SPLIT_MIN_PARTS (call 1,
# peer_sweep.py --set steps, us: (1,32,4,1,S,128) 2,048 5.06, 2,049 7.04; 8,192 8.93, 8,193 10.78). Call 5
# (decode_even60.py --time, one binary for both forms launched alike, 11 rounds, us: even / equal): 4 pairs x 16 parts at
# D=128 (64 CTAs) (1,32,4,1,S,128) 2,049 6.28 / 7.22, 4,097 7.00 / 8.15, 8,193 9.99 / 11.14. Where the grid fills the SMs
# the even parts read behind with batches of 2-4 sequences ((2,32,8,1,2049,128) 9.77 / 9.25, (2,32,8,1,4097,64) 9.60 /
# 9.26, (4,32,8,1,2049,128) 14.33 / 13.37 at 4 parts both ways) and at D=64 ((1,32,8,1,8193,64) 9.55 / 9.28), ahead for
# one sequence at D=128 ((1,32,8,1,4097,128) 9.30 / 10.06; call 6 8.72 / 9.14): not used there. Why the full grids of
# batches lose was not found (not measured: the parts' starts on multiples of 512 keys, the input sets' L2 residency).
SWAP_DECODE_EVEN = True


def swap_decode_even(pairs: int, parts: int, sm_count: int) -> bool:
    """Whether a swap decode call of `pairs` (sequence, key/value head) pairs in `parts` parts (swap_decode_parts')
    takes the even parts (SWAP_DECODE_EVEN: where pairs x parts is at most half the SMs). Public."""
    return SWAP_DECODE_EVEN and pairs * parts <= sm_count // 2


# Two (sequence, key/value head) pairs (session 56 call 2, decode_merge56.py, us: the forward kernels (the API) /
# combine 32 parts / merged 32 / combine 64 / merged 64 / cuDNN): (1,16,2,1,65536,128) 27.30 / 26.82 / 25.52 / 30.55 /
# 28.40 / 24.43 ahead at 32 parts; 32,768 keys 17.15 / 18.32 / 17.52 / 22.38 / 20.36 / 16.27 and D=64
# (1,16,2,1,65536,64) 20.54 / 20.67 / 21.03 / 18.98 / 20.52 / 16.59 not (nor three pairs: (1,24,3,1,65536,128) 33.84
# against 34.35 at 32 parts, 34.18 at 44). D=64 two pairs at 64 parts on the combine (past the merged build's 32;
# merged in rounds of 16 at 64 it read 20.52): 18.98 against the API's 20.54 (cuDNN 16.59). Call 6 (rule_check --set
# s56b: the API / without it / cuDNN): (1,16,2,1,65536,64) 19.04 / 20.35 / 16.36, 131,072 27.39 / 34.33 / 25.28,
# (1,12,2,1,65536,64) 18.79 / 20.55 / 16.24, (1,14,2,1,262144,64) 42.34 / 61.49 / 41.45. {head dim: (parts, from keys)}.
SWAP_DECODE_TWO_PAIRS = {128: (32, 65536), 64: (64, 65536)}
# Session 59 call 6 (decode_batch59.py --fill, H200, graph replay, 5 rounds, us: the API then (forward kernels) / the
# merged swap kernel at the parts given / cuDNN): pair counts no part count above fills, at sm_count // pairs parts.
# D=64 wins from 6 to 48 pairs: (2,24,3,1,S) 20 parts 4,096 keys 7.88 / 6.05 / 7.56, 16,384 13.49 / 11.65 / 12.98; (3,32,4)
# 10 parts 1,024 5.48 / 5.25 / 6.15, 16,384 19.98 / 17.42 / 18.49; (3,32,8) 5 parts 1,024 7.40 / 5.78 / 6.60, 4,096
# 12.39 / 11.24 / 11.96, 16,384 33.64 / 28.81 / 29.37; (5,32,8) 3 parts 1,024 7.37 / 6.62 / 7.78, 16,384 58.26 / 43.35
# / 46.53; (6,32,8) 2 parts 1,024 7.40 / 7.40 / 7.98, 16,384 60.26 / 52.79 / 52.02; not at 64 pairs x 2 (1,024 keys
# 8.41 / 9.13, 4,096 20.63 / 20.92) nor 96 x 1 (29.32 / 29.84). D=128 only up to 24 pairs and 4,096 keys: (2,24,3) 4,096
# 9.73 / 7.01 / 9.50 (16,384 17.99 / 17.80), (3,32,4) 1,024 6.72 / 5.99 / 7.50, 4,096 11.99 / 11.76 / 13.80 (16,384
# 29.61 / 30.31), (3,32,8) 1,024 9.58 / 6.96 / 9.06, 4,096 17.79 / 17.41 / 18.98 (16,384 50.97 / 52.63); 40 pairs and
# more lost (e.g. (5,32,8) 3 parts 4,096 25.14 / 25.60, (6,32,8) 2 parts 16,384 94.92 / 107.51).
# Session 60 (scripts/decode_even60.py --fill and decode_batch59.py --next, H200, graph replay, us: the API then (the
# forward kernels) / the merged swap kernel at sm_count // pairs parts / cuDNN) widened it. D=64 49-66 pairs (2 parts)
# from 8,192 keys: (7,32,8,1,8192) 34.63 / 32.39 / 32.57, 16,384 63.06 / 57.21 / 57.90; (8,32,8,1,8192) 36.30 / 35.84 /
# 36.08, 16,384 67.13 / 65.27 / 65.84, 65,536 250.26 / 238.24 / 237.10 (below 8,192 keys 64 pairs lost, above). D=128
# 25-30 pairs up to 4,096 keys: (7,32,4,1,S) 4 parts 1,024 9.93 / 7.95 / 9.57, 2,048 13.19 / 12.48 / 14.30, 3,000 16.49
# / 16.23 / 17.89, 4,096 19.45 / 19.51 / 20.96; (5,30,6,1,2048) 13.19 / 12.82 / 14.73, 4,096 20.18 / 20.19 / 21.82.
# D=128 5-8 pairs up to 16,384 keys: (2,24,3,1,S) 22 parts 8,192 12.10 / 11.14 / 13.79, 12,000 14.50 / 14.22 / 16.65,
# 16,384 17.41 / 16.86 / 19.82; (1,40,5,1,S) 26 parts 8,192 11.38 / 10.43 / 12.94, 16,384 16.21 / 15.28 / 17.69.
# {head dim: tiers (most pairs, least keys, most keys or None)}: a call from SWAP_DECODE_FILL_PAIRS pairs takes the fill
# where a tier holds its pairs and keys
SWAP_DECODE_FILL = {64: ((48, 1024, None), (66, 8192, None)), 128: ((8, 1024, 16384), (30, 1024, 4096))}
SWAP_DECODE_FILL_PAIRS = 5
# Session 61: pair counts a little past one or two waves of the SMs. One program a pair (the forward kernels, or the swap
# kernel at one part) runs 136 pairs in two waves on 132 SMs, the second of 4 programs: call 1 (scripts/decode_sms61.py,
# H200, graph replay, us: the API / cuDNN) (34,32,4,1,16384,128) 367.28 / 257.77, where 132 pairs read 243.54 / 243.62.
# In n parts the waves are shorter and the last one holds n x the tail's pairs. Call 3 (decode_many61.py --no-two, graph
# replay, 7 rounds, us: the API / the merged swap kernel at 2 / 4 / 8 parts / cuDNN): D=128 136 pairs (34,32,4,1,S,128)
# 2,048 keys 52.28 / 46.35 / 45.58 / 56.47 / 37.90, 4,096 98.10 / 82.06 / 77.91 / 82.35 / 70.28, 8,192 189.77 / 147.42 /
# 140.81 / 143.19 / 135.92, 16,384 370.78 / 274.77 / 265.76 / 269.38 / 265.09, 32,768 730.66 / 531.32 / 515.43 / 521.85
# / 525.33; 144 pairs (18,32,8,1,S,128) 4,096 98.64 / 83.56 / 79.98 / 84.80 / 74.55, 16,384 372.86 / 286.24 / 289.86 /
# 280.11 / 282.72; 160 pairs (20,32,8,1,S,128) 2,048 53.05 / 49.35 / 51.53 / 63.35 / 43.50, 16,384 376.76 / 324.92 /
# 310.40 / 310.22 / 316.71; 272 pairs (68,32,4,1,S,128) 2,048 83.45 / 79.53 / 83.22 / 107.20 / 84.10, 16,384 606.80 /
# 514.55 / 521.20 / 526.40 / 614.56, 32,768 1,195.85 / 1,014.34 / 1,022.05 / 1,030.42 / 1,236.64. D=64 136 pairs
# (34,32,4,1,S,64) 4,096 49.88 / 51.78 / 50.13 / 58.73 / 42.20, 8,192 96.01 / 93.25 / 85.89 / 88.36 / 79.71, 16,384
# 185.65 / 174.92 / 155.96 / 150.80 / 152.95, 32,768 369.82 / 340.51 / 297.88 / 281.60 / 303.39; 160 pairs 8,192 98.31 /
# 94.63 / 92.05 / 99.77 / 84.44, 32,768 381.66 / 343.89 / 309.99 / 318.60 / 327.48; at 2,048 keys (136-160 pairs) and at
# 272 pairs up to 16,384 keys the API read ahead (272 x 16,384: 274.24 / 299.27 / 282.83 / 284.95 / 263.37). Call 2:
# at 1,024 keys parts lost (D=128 136 pairs 29.52 / 28.31 / 31.76 / 44.34 / 21.77) and at 200 pairs they did not win
# ((50,32,4,1,4096,128) 103.47 / 110.33 / 108.95; 16,384 391.66 / 381.30 / 387.30); 128 and 264 pairs (full waves) stay.
# Call 4 (rule_check --set s61, 9 rounds, us: the API / the rule before / cuDNN): (34,32,4,1,S,128) 2,048 45.80 / 52.26 /
# 38.09, 4,096 77.98 / 98.10 / 70.60, 16,384 265.44 / 370.25 / 265.91; (17,32,8,1,4097,128) 74.77 / 100.75 / 71.66;
# (68,32,4,1,16384,128) 514.56 / 606.47 / 619.30; (34,32,4,1,32768,64) 297.85 / 369.08 / 302.36; x1.05-1.40 in all 12
# cells. Its decode_many61 past two and three waves at D=128 (5 rounds, us: the API / 1 / 2 / 4 parts / cuDNN): 300
# pairs (75,32,4,1,S,128) 4,096 160.69 / 166.32 / 154.63 / 157.42 / 169.59, 16,384 620.32 / 645.77 / 582.82 / 573.19 /
# 650.25; 400 pairs (100,32,4) 4,096 216.86 / 202.97 / 202.13 / 205.92 / 197.89, 16,384 837.78 / 749.53 / 753.64 /
# 759.42 / 783.16 (404 pairs alike); at D=64 the API read ahead there (400 pairs x 16,384 393.76 / 462.21 / 419.37 /
# 402.01 / 384.02). {head dim: {full waves: (parts, from keys)}} for calls of more pairs than SMs whose last wave holds
# at most SWAP_DECODE_OVER_TAIL[head dim] of the SMs (measured tails: 4-36 of 132 at D=128).
# Calls 6-8 (decode_stream61.py): one full wave and a small last one run on attn_decode_sm90_stream instead (below), so
# the table kept two and three waves ({128: {2: (2, 2048), 3: (2, 4096)}}). Session 62 call 1 (decode_stream_wide62.py)
# read the stream kernel's TAIL build ahead of it there too (SWAP_DECODE_STREAM_WAVES below), so SWAP_DECODE_OVER and
# its branch in swap_decode_parts are gone (commit 4ced3db still has them: rule_check's s61* and s62 sets run there).
# Session 61: sm90_decode.attn_decode_sm90_stream (every program a contiguous range of the call's blocks across pairs,
# the pieces merged in the launch) for calls of one full wave of pairs and a last one of at most
# SWAP_DECODE_STREAM_TAIL[head dim] of the SMs, from SWAP_DECODE_STREAM[head dim] keys, SWAP_DECODE_STREAM_PER_SM
# programs an SM. Call 8 (decode_stream61.py, H200, graph replay, 7 rounds, us: the API (forward kernels below
# SWAP_DECODE_OVER's keys, else its 4 parts) / stream one program an SM / two / cuDNN): D=64 136 pairs (34,32,4,1,S,64)
# 1,024 keys 15.90 / 15.71 / 15.80 / 13.77, 4,096 50.25 / 40.98 / 40.42 / 42.22, 16,384 156.15 / 136.00 / 135.62 /
# 153.06; 160 pairs 4,096 52.09 / 46.95 / 46.29 / 45.03, 16,384 166.30 / 159.50 / 158.05 / 164.88; D=128 136 pairs
# (34,32,4,1,S,128) 1,024 31.22 / 27.24 / - / 23.25, 4,096 78.62 / 74.81 / - / 71.85, 16,384 266.29 / 264.67 / - /
# 267.22; 160 pairs 4,096 90.07 / 87.38 / - / 83.66, 16,384 312.76 / 310.54 / - / 316.89; call 7: 2,048 keys D=64 136
# pairs 26.99 / 25.13 / 24.01 / 22.93, 160 28.32 / 28.53 / 27.23 / 24.73; D=128 136 pairs 46.29 / 43.02 / - / 38.42,
# 160 52.61 / 49.16 / - / 43.95. On full waves it read behind (128 pairs x 1,024 keys D=128 24.97 against 21.25; 512
# pairs 965.68 against 953.17 at 16,384): a fixed cost of about 3 us, in the tail (call 13's stamps, decode_stream_
# stamps61.py: the release stores and the SC fence ~2,200 cycles, then each pair's words and merge in turn, 4,400 (max
# 8,400), against 3,800 for the one-part kernel's arrival and merge; the merges' place and the cursors' divisions were
# not it, calls 7-8). Two programs an SM at D=64 (its 96 KB ring); D=128's 192 KB ring holds one.
# Session 62: the TAIL build (one release fence, one ballot round for every pair's words, pairs of one piece stored
# directly) is the default. Call 1 (decode_stream_wide62.py, H200, graph replay, 5 rounds, us: the API (session 61's
# rule: SWAP_DECODE_OVER's 2 parts at 300 pairs from 2,048 keys and at 400 from 4,096, else the forward kernels) / the
# stream build / cuDNN; (B,32,4,1,S,128)): two full waves and a small last one, 300 pairs, 1,024 keys 46.86 / 46.12 /
# 48.15, 2,048 85.09 / 81.09 / 88.98, 4,096 154.88 / 150.15 / 169.06, 16,384 582.05 / 562.97 / 650.55; three and a
# small last one, 400 pairs, 1,024 61.52 / 59.28 / 55.18, 2,048 113.55 / 105.05 / 102.17, 4,096 202.62 / 197.42 /
# 197.19 (session 61 call 14, 16,384: 756.02 / 748.47 / 782.92); last waves of half the SMs or more mostly lose (200
# pairs 1,024 31.83 / 33.51, 2,048 55.66 / 57.45, but 16,384 391.66 / 380.88; 520 pairs 70.71 / 74.38, 4,096 246.92 /
# 252.62) and whole waves tie (264 pairs x0.998-1.027). D=64 past one wave (session 61 call 14, 264 and 400 pairs at
# 1,024-16,384 keys) read behind the API but at 400 x 16,384. Call 2 (rule_check --set s62, 7 rounds, us: the API /
# session 61's rule / cuDNN): (75,32,4,1,S,128) 1,024 46.67 / 47.70 / 48.89, 2,048 81.91 / 85.87 / 89.86, 16,384 565.58 /
# 585.24 / 647.28; (100,32,4,1,S,128) 1,024 58.92 / 62.61 / 54.88, 2,048 105.88 / 114.86 / 102.51, 4,096 198.16 / 204.20
# / 197.82; (34,32,8,1,4096,128) 136.71 / 142.46 / 161.87; (50,32,8,1,2048,128) 104.38 / 114.00 / 101.95;
# (101,32,4,1,16384,128) 757.09 / 760.44 / 781.26; and four full waves (decode_stream_wide62.py, 5 rounds: the API /
# the stream build / cuDNN) 536 pairs 1,024 keys 77.59 / 75.62 / 73.67, 4,096 276.58 / 261.12 / 269.20, 560 pairs 79.24
# / 78.41 / 76.92 and 281.56 / 272.36 / 278.18. Call 3 (the same): five and six full
# waves, 664 pairs 1,024 keys 93.58 / 91.16 / 86.28, 4,096 336.61 / 321.31 / 320.67; 796 pairs 1,024 110.91 / 108.05 /
# 102.64 (700 and 820 pairs, last waves of 0.30 and 0.21 of the SMs: x1.006-1.020 and x1.013). Call 5 (the same at
# 16,384 keys, the forward kernels as api_prev: the API / api_prev / cuDNN): 536 pairs 1002.50 / 1075.14 / 1042.06, 664
# 1239.48 / 1302.47 / 1265.84, 796 1478.12 / 1532.14 / 1465.60. So at D=128 up to SWAP_DECODE_STREAM_WAVES full waves
# (seven and more not measured). Call 7 (the same: the API, the forward kernels there / the stream build / cuDNN) at
# last waves of 0.36-0.45 of the SMs: 180 pairs 1,024 keys 30.86 / 31.11 / 26.54, 4,096 99.88 / 93.32 / 91.30, 16,384
# 376.20 / 335.53 / 342.99; 192 pairs 31.20 / 32.49 / 27.72, 100.75 / 97.92 / 94.86, 381.19 / 355.97 / 359.58; 444
# pairs 63.36 / 62.60 / 59.72, 219.69 / 214.41 / 235.86, 846.60 / 811.20 / 914.38; 456 pairs 63.91 / 64.31 / 61.09,
# 220.64 / 220.63 / 235.41, 853.79 / 831.96 / 915.52: at 1,024 keys x0.96-1.01, from 4,096 x1.00-1.12. So from
# SWAP_DECODE_STREAM_LONG's keys the last wave may hold up to its fraction of the SMs (60 of 132 measured; 68, 200
# pairs, read x0.99 at 4,096 keys in call 1).
SWAP_DECODE_STREAM = {128: 1024, 64: 2048}
SWAP_DECODE_STREAM_TAIL = {128: 0.3, 64: 0.25}
SWAP_DECODE_STREAM_LONG = {128: (4096, 0.46)}  # {head dim: (from keys, last wave's fraction of the SMs)}
SWAP_DECODE_STREAM_WAVES = {128: 6, 64: 1}
SWAP_DECODE_STREAM_PER_SM = {128: 1, 64: 2}
SWAP_DECODE_STREAM_PARTS = 4  # pieces a pair at most (the build's MAX_PARTS: a merge of one round)
SWAP_DECODE_STREAM_KERNEL = "attn_decode_sm90_stream"
# Session 64: one wave of pairs or less, more than half the SMs' pairs (where swap_decode_parts gives no parts and the
# forward kernels' split keys ran), a program a pair on the stream build's own ring (its shipped binary: no piece, no
# arrival; WHOLE_SKIP drops the fences). Call 3 (decode_stream_whole63.py, H200, graph replay, 5 rounds, us: the API
# then / a program a pair / cuDNN; (B,32,4,1,S,128)): 1,024 keys 68 pairs 14.75 / 13.47 / 14.82, 80 15.87 / 14.43 /
# 15.63, 96 17.62 / 16.57 / 17.03, 112 19.25 / 18.38 / 18.29, 128 21.07 / 20.07 / 20.03, 132 21.41 / 20.29 / 20.54
# (x1.025-1.10 at 68-132 pairs); 1,536 keys x1.010-1.110; 2,048-3,072 keys x1.014-1.07 at 68-88 pairs and x1.013-1.034
# at 128-132, 96-120 pairs x0.977-1.012 (2,048: 96 29.44 against 28.77); 768 keys x1.014-1.035 at 68-96 pairs, x0.986-
# 1.003 at 104-132; 640 keys x0.962-1.023; 56-64 pairs (the forward kernels' clusters) x0.85-0.96. Groups of 4
# ((B,32,8,1,S,128), 72-128 pairs) alike: 1,024 keys x1.046-1.083, 2,048 72 pairs x1.069, 96 x0.986, 128 x1.031. From
# 4,096 keys ties or losses (call 2: 96 pairs x 4,096 55.12 against 50.49; 128-132 pairs x1.008-1.017). D=64
# ((B,32,4,1,S,64)): 768 keys x1.024-1.046 at 68-132 pairs, 1,024 x1.030-1.046 at 80-132 (68: x0.991), 2,048-4,096
# x1.008-1.034 at 112-132 pairs and x0.84-0.975 at 68-96; 512 keys x0.996-1.062. {head dim: tiers (least keys, most
# keys, pairs over SMs more than, at most)}: a call of at most the SMs' pairs takes a program a pair where a tier holds.
# Session 65 call 1 (decode_stream_whole63.py --builds w128s3,w64s3, 5 rounds, us: the API (the forward kernels' split
# keys) / a program a pair / cuDNN): 128 pairs (16,32,8,1,S,128) 4,096 keys 64.98 / 64.18 / 64.37, 8,192 123.97 / 122.90 /
# 124.40; (32,32,4) 65.34 / 64.75 / 64.72 and 124.19 / 123.38 / 124.07; 132 pairs (33,32,4) 67.23 / 66.58 / 66.72 and
# 128.07 / 127.33 / 128.09; call 2 at 16,384 keys: 132 pairs 243.46 / 241.00 / 244.20, 128 (16,32,8) 236.05 / 234.36 /
# 236.69, but 120 and 124 pairs behind (4,096 keys 60.65 / 64.37 and 62.17 / 62.13; 16,384 223.75 / 231.04 and 229.50
# / 231.33). So the third D=128 tier up to 16,384 keys (x1.005-1.012 there).
SWAP_DECODE_ONE = {128: ((768, 3072, 0.5, 0.67), (1024, 1536, 0.5, 1.0), (1024, 16384, 0.95, 1.0)),
                   64: ((768, 1024, 0.55, 1.0), (768, 4096, 0.8, 1.0))}


def swap_decode_stream(head_dim: int, batch: int, heads: int, kv_heads: int, seq_k: int, sm_count: int) -> int:
    """Programs for attn_decode_sm90_stream for a one-query call of grouped heads (SWAP_DECODE_MIN_GROUP-8 a group), or
    0: more (sequence, key/value head) pairs than SMs, 1 to SWAP_DECODE_STREAM_WAVES[head_dim] full waves of them and a
    last wave of at most SWAP_DECODE_STREAM_TAIL[head_dim] of the SMs (SWAP_DECODE_STREAM_LONG's fraction from its
    keys), from SWAP_DECODE_STREAM[head_dim] keys; SWAP_DECODE_STREAM_PER_SM programs an SM; or (session 64) at most the SMs' pairs
    where a tier of SWAP_DECODE_ONE holds the pairs and keys: a program a pair (within the kernel's 32-bit schedule
    arithmetic). Public: shapes and the SM count."""
    group = heads // kv_heads
    pairs = batch * kv_heads
    least = SWAP_DECODE_STREAM.get(head_dim)
    if not SWAP_DECODE or least is None or not SWAP_DECODE_MIN_GROUP <= group <= SWAP_DECODE_MAX_GROUP:
        return 0
    if pairs <= sm_count:  # (session 64) one wave or less: a program a pair where SWAP_DECODE_ONE's tiers say
        one = any(lo_k <= seq_k <= hi_k and lo * sm_count < pairs <= hi * sm_count
                  for lo_k, hi_k, lo, hi in SWAP_DECODE_ONE.get(head_dim, ()))
        return pairs if one and stream_schedule_fits(pairs, pairs * -(-seq_k // SWAP_DECODE_CONFIG.block_n)) else 0
    if seq_k < least:
        return 0
    waves, tail = divmod(pairs, sm_count)
    frac = SWAP_DECODE_STREAM_TAIL[head_dim]
    long_keys, long_frac = SWAP_DECODE_STREAM_LONG.get(head_dim, (0, 0.0))
    if long_keys and seq_k >= long_keys:
        frac = max(frac, long_frac)
    if not (1 <= waves <= SWAP_DECODE_STREAM_WAVES[head_dim] and 0 < tail <= frac * sm_count):
        return 0
    n_prog = SWAP_DECODE_STREAM_PER_SM[head_dim] * sm_count
    return n_prog if stream_schedule_fits(n_prog, pairs * -(-seq_k // SWAP_DECODE_CONFIG.block_n)) else 0


# Session 63: past one wave of pairs, a program a pair (attn_decode_sm90_stream with as many programs as pairs: no
# piece, no arrival; WHOLE_SKIP drops the fences) on a smaller ring, SWAP_DECODE_WHOLE[head dim] (D=128: 64-key blocks,
# 2 stages, 64 KB; D=64: 128-key blocks, 2 stages, 64 KB: three programs an SM), so that every pair is resident at once
# and the DRAM rather than a wave sets the pace. Call 2 (decode_stream_whole63.py, H200, graph replay, 5 rounds, us:
# the API before / the whole build / cuDNN; (B,32,4,1,S,D)): D=128 1,024 keys 136 pairs 26.25 / 22.93 / 22.96, 160
# 29.54 / 25.88 / 25.60, 200 32.23 / 29.31 / 29.65, 240 35.90 / 34.75 / 34.60, 264 38.62 / 37.26 / 37.29, 300 47.50 /
# 45.44 / 49.30, 396 55.39 / 52.35 / 54.20; 2,048 keys x1.01-1.12 (136 43.05 / 41.09 / 38.82, 180 54.20 / 48.25 /
# 49.83); from 4,096 keys only 160-200 pairs gain (4,096 x1.045-1.06, 8,192 x1.015-1.04; 16,384 x0.99-1.03), the others
# tie or lose where SMs hold uneven program counts (136 pairs x 8,192 141.70 against 136.79, 300 x 4,096 155.58 against
# 150.96). D=64 1,024 keys 136 pairs 15.31 / 13.28 / 13.66, 200 17.54 / 16.35 / 16.41, 264 20.31 / 19.98 / 19.78 (call
# 1: 300 pairs lose, 24.80 against 23.23); 2,048 x1.02-1.12; 4,096-8,192 at 160-200 pairs x1.02-1.14. Groups of 4
# (H_KV=8) alike (1,024 keys x1.05-1.16). WHOLE_SKIP: 0.4-0.9 us in nearly every cell. Call 3 (rule_check --set s63,
# 7 rounds: the API / without the rule / cuDNN): (34,32,4,1,1024,128) 22.09 / 26.04 / 21.61, (75,...,1024,128) 40.98 /
# 47.03 / 48.53, (99,...,2048,128) 94.81 / 98.94 / 109.76, (40,...,4096,128) 80.37 / 84.47 / 81.04, (50,...,8192,128)
# 187.75 / 197.06 / 190.73, (34,...,1024,64) 13.40 / 15.56 / 13.61, (45,...,8192,64) 87.48 / 100.86 / 89.06 (x1.04-1.17
# in all 11 cells); and (decode_stream_whole63.py, the stream build / whole / cuDNN) 512 keys at D=128 136 pairs 16.82 /
# 13.38 / 12.94, 396 30.01 / 28.90 / 31.04, D=64 136 11.34 / 8.78 / 8.75 (the API there, the forward kernels: 17.39 and
# 9.41); 3,072 keys at D=128 136 pairs 58.63 / 56.91 / 54.55, 300 116.01 / 111.34 / 129.60, 396 140.57 / 141.20 /
# 153.17. Call 4 (rule_check --set s63b, as call 3): (34,32,4,1,512,128) 13.44 / 17.93 / 13.37, (99,...,512,128) 27.72
# / 32.10 / 30.72, (75,...,3072,128) 114.43 / 115.71 / 128.07, (68,...,3072,128) 106.57 / 105.28 / 120.64 (x0.988: 272
# pairs, 8 SMs with three programs), (34,...,512,64) 8.12 / 9.47 / 8.73, (60,...,3000,64) 45.76 / 47.65 / 46.57,
# (17,32,8,1,700,128) 16.69 / 23.53 / 17.28; below 512 keys (decode_stream_whole63.py, the API / whole / cuDNN) D=128
# 128 keys 136 pairs 8.17 / 5.33 / 6.46, 396 15.05 / 10.31 / 13.32, 256 keys 136 12.55 / 8.92 / 8.89, 396 22.69 / 16.51
# / 19.60; D=64 128-256 keys x0.96-1.04 (264 pairs behind). So: more pairs than SMs, at most
# SWAP_DECODE_WHOLE_MOST[head dim] x the SMs, from SWAP_DECODE_WHOLE_KEYS[head dim][0] keys: all up to its [1] keys,
# past that up to SWAP_DECODE_WHOLE_BAND's keys only for pairs of (lo, hi] x the SMs.
SWAP_DECODE_WHOLE = {128: TileConfig(8, 64, 4, 2), 64: TileConfig(8, 128, 4, 2)}
SWAP_DECODE_WHOLE_KEYS = {128: (128, 3072), 64: (512, 3072)}  # (from keys, every pair count up to keys); fewer keys
# not measured
SWAP_DECODE_WHOLE_MOST = {128: 3.0, 64: 2.0}  # pairs over SMs at most (measured: 3.0 and 2.0; D=64's 2.27 lost)
# Session 65 call 4 (decode_stream_whole63.py, 5 rounds, us: the API (the forward kernels) / a program a pair /
# cuDNN): D=64 past the band's 8,192 keys, (B,32,8,1,16384,64) 168 pairs 193.49 / 161.52 / 166.84, 184 198.61 / 173.98 /
# 177.12, 192 201.89 / 181.45 / 183.54 (x1.11-1.20). So D=64's band to SWAP_DECODE_WHOLE_SPREAD[64]'s keys (65,536
# after call 5: 168 pairs there 756.94 / 624.76 / 648.01).
SWAP_DECODE_WHOLE_BAND = {128: (1.2, 1.55, 8192), 64: (1.2, 1.55, 65536)}  # {head dim: past
# SWAP_DECODE_WHOLE_KEYS[1]: (lo, hi] pairs over SMs, up to keys}
# Call 5 (decode_stream_whole63.py, k whole pairs a program: pairs / k programs on the same ring; us, the API (the
# stream build) / k=2 / k=3 / k=4 / cuDNN, (B,32,4,1,S,128)): 1,024 keys 400 pairs 59.55 / 52.56 / - / 62.65 / 54.41,
# 536 76.14 / 71.66 / - / 75.20 / 73.78, 600 81.63 / 81.48 / 78.09 / 80.92 / 80.81, 664 91.84 / 86.28 / - / 86.86 /
# 86.33, 800 108.20 / 114.06 (400 programs: past three an SM) / - / 101.36 / 102.19; 2,048 keys 400 106.08 / 99.29 / - /
# 118.13, 536 137.94 / 137.78 / - / 143.05, 600 149.66 / 157.40 / 148.73 / 154.09, 664 169.13 / 166.72 / - / 165.54, 800
# 200.41 / 219.69 / - / 194.22. Programs of (1.2, 1.55] x the SMs won in every cell (x1.006-1.13), other counts lost
# somewhere (600 pairs in 300 programs at 2,048 keys x0.95). So past the rule above: the least k of
# 2..SWAP_DECODE_WHOLE_K's with pairs / k whole programs in (SWAP_DECODE_WHOLE_K's low, SWAP_DECODE_WHOLE_BAND's hi] x
# the SMs, from SWAP_DECODE_WHOLE_KEYS' least keys up to SWAP_DECODE_WHOLE_K's keys. Call 6 (rule_check --set s63c, 7
# rounds: the API / without it / cuDNN): (100,32,4,1,1024,128) 52.66 / 59.75 / 54.47, (200,...,1024) 100.47 / 108.49 /
# 102.05, (250,...,1024) (k=5) 125.53 / 129.68 / 124.99, (100,32,8,1,700,128) 71.02 / 81.58 / 73.13,
# (150,16,4,1,2000,128) 144.44 / 148.78 / 153.58; at the band's low end (1.21-1.26 x the SMs) (166,32,4,1,2048,128)
# 165.18 / 169.01 / 164.30, (330,...,1024) (k=8) 168.35 / 168.21 / 162.76 and (120,...,2048) (480 pairs, k=3) 123.48 /
# 120.71 / 120.45 (x0.978). Call 7 (decode_stream_whole63.py, the API / k=2 / k=3 / k=4 / cuDNN): D=64 (the forward
# kernels in the API) 600 pairs 1,024 keys 53.03 / 44.70 / 42.77 / 44.61 / 46.99, 4,096 189.09 / 155.85 / 147.06 /
# 153.11 / 164.87; 664 pairs 1,024 53.40 / 45.87 / - / 46.34 / 47.58, 4,096 191.66 / 165.24 / - / 164.25 / 169.88; 800
# pairs 1,024 54.61 / 58.98 / - / 53.08 / 52.92, 4,096 203.41 / 217.59 / - / 193.09 / 194.52; 400 pairs 1,024 29.16 /
# 29.69 (x0.98), 2,048 53.20 / 52.12, 4,096 101.28 / 98.26; 300 pairs (outside the band) k=2-4 behind; D=128 4,096 keys
# 400 pairs 198.32 / 192.30, 600 287.28 / - / 287.28, 800 385.49 / - / - / 381.55. So both head dims up to 4,096 keys,
# and k pairs a program only from more than 1.25 x the SMs' programs (480 pairs in 160 programs lost, 1,320 in 165 tied;
# 664 in 166 won). Call 11 (the same, 8,192 and 16,384 keys): D=64 400 pairs 199.00 / 192.58 (cuDNN 195.08) and 395.14 /
# 379.46 (384.65), 600 370.08 / - / 286.48 (325.08) and 728.90 / - / 567.08 (638.99), 664 374.55 / - / - / 323.50
# (334.60) and 739.22 / - / - / 637.26 (666.16), 800 401.10 / - / - / 383.53 (391.75) and 780.85 / - / - / 754.27
# (768.53); D=128 x0.985-1.008 of the API there (400 pairs 383.25 / 380.05 and 748.62 / 753.33; 664 632.48 / - / - /
# 635.28 and 1240.90 / - / - / 1260.31). So D=64 up to 16,384 keys, D=128 up to 4,096.
SWAP_DECODE_WHOLE_K = {128: (4096, 8, 1.25), 64: (16384, 8, 1.25)}  # {head dim: (up to keys, most pairs a program:
# the TAIL launcher's 8, programs over SMs more than)}
# Session 64: the whole-pair builds run attn_decode_sm90_stream's PAIR_UNITS schedule (program c the pairs [c P // N,
# (c + 1) P // N): the same ranges where the N programs divide the P pairs; FLAGS never read, no arrival code: 61
# registers at D=128 against 104, 56 at D=64 against 64), and so take program counts that do not divide the pairs.
# Call 8 (decode_stream_whole63.py --heads 32:8, H200, graph replay, 5 rounds, us: the API then / PAIR_UNITS at 2 x the
# SMs' programs / cuDNN; (B,32,8,1,S,128)) where the API ran the forward kernels: 512 pairs 1,024 keys 68.66 / 64.71 /
# 66.32, 2,048 126.28 / 123.47 / 125.17, 4,096 242.85 / 241.42 / 244.02; 1,024 pairs 130.55 / 125.39 / 126.08, 245.73 /
# 243.76 / 243.42, 479.15 / 477.96 / 478.74; at 1.3 and 1.5 x the SMs behind; where the API ran k pairs a program or
# the stream build (400, 600, 704, 800, 920 pairs) PAIR_UNITS at 1.3 / 1.5 / 2 x read x0.87-1.02 of it; D=64 at 512 and
# 1,024 pairs x1.006-1.013 (not taken). So past the rules above (no whole pairs, no stream build) at D=128 up to
# SWAP_DECODE_WHOLE_SPREAD's keys and pairs: its programs an SM in whole pairs. Call 9 (rule_check --set s64b, 7
# rounds: the API / without PAIR_UNITS and the spread / cuDNN): (64,32,8,1,1024,128) 64.55 / 69.26 / 66.07,
# (128,32,8,1,1024,128) 125.42 / 131.68 / 126.40, (113,32,4,1,1500,128) 83.15 / 91.02 / 86.02, (120,32,4,1,2048,128)
# 118.00 / 121.99 / 120.02, (165,32,4,1,1024,128) 84.54 / 88.27 / 85.81; the whole builds' cells on the PAIR_UNITS
# binary against session 63's (34,32,4,1,1024,128) 21.88 / 22.84 / 22.01, (34,32,4,1,512,128) 12.89 / 13.69 / 13.22,
# (150,32,4,1,1024,64) 41.61 / 42.58 / 46.69 (x1.003-1.095 in all 12 cells). Past 8 x the SMs' pairs (calls 10-11,
# the same script): 2 x the SMs' programs lost where they hold uneven counts (1,100 pairs, 4.2 a program on average
# and 5 at most: 2,048 keys 274.57 against the forward kernels' 266.06) and won where even (1,320: 158.91 / 165.34 /
# 159.67 at 1,024 keys); k = ceil(pairs / (2 x SMs)) pairs a program at most in ceil(pairs / k) programs (k or k - 1
# each) won or tied at 1,100 (137.21 / 142.45 / 134.47; 2,048 keys 265.33 / 266.06 / 256.37), 1,320 (158.89; 306.48 /
# 311.10 / 308.53) and 1,584 (189.34 against k pairs a program's 192.71); at 3-8 x the SMs it tied 2 x the SMs'
# programs or lost (452 pairs 58.62 against 57.55). So that count from SWAP_DECODE_WHOLE_SPREAD's fourth up to its
# fifth, where no rule above takes the call (session 64's form of the table; session 65's below).
# Session 65 (decode_stream_whole63.py, H200, graph replay, 5 rounds, us): the balanced count (k = ceil(pairs / (2 x
# SMs)) pairs a program at most, ceil(pairs / k) programs: b20) against 2 x the SMs' programs (u20) and the API from 3x
# the SMs' pairs. Call 2 ((B,32,4,1,S,128), the API / u20 / b20 / cuDNN), 1,024 keys: 420 pairs (the stream build then)
# 60.97 / 54.94 / **54.00** / 57.18, 532 (the stream build) 74.72 / 79.67 / **69.63** / 72.78, 852 (u20) 112.04 /
# 112.70 / **104.68** / 110.91, 796 (k = 4) 98.26 / 109.69 / 98.20, 664 (k = 4) 84.42 / 83.78 / 83.26, 900 (k = 5)
# 112.30 / 113.59 / 111.44, 400 / 480 / 600 / 732 within 0.3%, 452 (u20) 57.31 / 57.58 / 58.22 (x0.984, the one loss);
# 2,048 keys alike (420 108.99 / 102.55 / 101.84, 532 135.15 / 153.16 / 130.84, 852 215.39 / 215.54 / 201.68; 452 108.96
# / 109.24 / 110.36); from 4,096 keys ties (call 1: 532 pairs 259.29 / 256.92, 852 410.21 / 409.45). At D=64
# ((B,32,8,1,S,64) and (B,32,4,1,S,64); the API / b20 / cuDNN), where the API ran the forward kernels: 200 pairs
# 16,384 keys 206.04 / **187.23** / 188.73, 232 pairs 4,096 59.90 / 58.13 / 58.64, 16,384 222.71 / 216.62 / 215.50, 264
# pairs 65.73 / 64.80 / 65.83 and 247.03 / 242.72 / 243.46, 520 pairs 1,024 35.18 / 34.43 / 34.85, 4,096 123.33 /
# 122.20 / 122.31, 16,384 476.11 / 473.00 / 471.71, 1,100 pairs 81.34 / **70.46** / 74.84, 295.14 / 258.99 / 271.06,
# 1,129.92 / 1,019.30 / 1,053.11, 1,320 pairs 84.32 / 81.40 / 83.32, 325.98 / 304.15 / 333.67, 1,327.14 / 1,192.23 /
# 1,313.70 (call 1: 512 and 1,024 pairs x1.004-1.023); where it ran k pairs a program (700, 900 pairs) x0.995-1.022;
# but 300 pairs (b20: 150 programs of 2) 1,024 keys 22.82 / 23.77, 16,384 286.77 / 297.89 (x0.963). So both head dims
# take b20's count first in SWAP_DECODE_WHOLE_SPREAD's keys and pairs, D=64 only where its programs fill at least 0.75
# of 2 x the SMs (300 pairs' 150 do not; 200 pairs' 200 do).
SWAP_DECODE_WHOLE_UNITS = True
# Call 4 (the same script) at 32,768 keys, D=64 (B,32,8,1,32768,64) (the API, the forward kernels / b20 / cuDNN): 200
# pairs 403.55 / 370.65 / 373.42, 264 486.46 / 477.16 / 479.00, 520 944.83 / 937.11 / 934.25, 1,024 1,870.80 / 1,853.74 /
# 1,858.00 (x1.008-1.089): D=64's keys to 32,768. Call 5 (the same; the API / a program a pair / b20 / cuDNN): D=64
# 65,536 keys (B,32,8,1,65536,64) 168 pairs 756.94 / 624.76 / - / 648.01, 200 799.50 / 731.91 / 732.00 / 734.28, 264
# 963.82 / 947.40 / 947.23 / 948.33 (x1.018-1.21 over the forward kernels); D=128 (B,32,4,1,S,128) (the API / b20 /
# cuDNN) 3,072 keys 420 pairs (the stream build) 156.08 / 150.27 / 153.13, 532 (the stream build) 194.35 / 190.73 /
# 196.66, 852 (the forward kernels) 303.67 / 301.48 / 316.92; 4,096 keys 420 203.27 / 197.44 / 204.19, 532 253.62 /
# 252.91 / 260.05, 852 402.55 / 402.01 / 420.55 (call 1 at 4,096 keys: 452-952 pairs x0.995-1.019). So D=64's keys to
# 65,536 (its band too) and D=128's to 4,096.
SWAP_DECODE_WHOLE_SPREAD = {128: (1024, 4096, 2.0, 3.0, 12.0, 0.0), 64: (1024, 65536, 2.0, 1.0, 10.0, 0.75)}  # {head
# dim: (least keys, most keys, programs over SMs (F), pairs over SMs more than, pairs over SMs at most, least fill):
# k = ceil(pairs / (F x SMs)) pairs a program at most in ceil(pairs / k) programs, where those are at least the fill
# x F x SMs}
# Session 66: D=128 past 12x the SMs' pairs up to 2,048 keys. Calls 2-3 (scripts/decode_stream_whole63.py, H200, graph
# replay, 5 rounds, us: the API (the forward kernels) / b20 (this count) / cuDNN; (B,32,8,1,S,128), and MHA (B,32,32)
# in call 2): 1,024 keys 2,048 pairs 249.07 / 240.59 / 240.67 and 249.38 / 240.41 / 240.84, MHA 246.02 / 236.93 /
# 236.94; 2,560 pairs 310.15 / 301.32 / 299.87, 309.44 / 301.08 / 299.79, MHA 305.71 / 296.39 / 295.55; 2,048 keys
# 2,048 pairs 475.77 / 472.34 / 469.77, 475.64 / 471.52 / 469.70; 2,560 594.03 / 589.69 / 587.59, 592.83 / 589.54 /
# 587.71 (x1.006-1.038); but 3,200 and 4,000 pairs ties or loses (1,024 keys 384.08 / 382.47, 474.78 / 473.37; 2,048
# keys 741.74 / 752.49, 918.33 / 928.99), and at 4,096 keys 2,048-4,000 pairs x0.98-1.00. (1,600 pairs keep k pairs a
# program: 191.04 / 195.03 at 1,024 keys: so this count comes after session 63's branches.) {head dim: (most keys, pairs
# over SMs at most)}: the spread's count from its least keys up to these keys also past its pairs, up to these pairs
# over SMs, where no other branch of swap_decode_whole takes the call.
SWAP_DECODE_WHOLE_SPREAD_MORE = {128: (2048, 20.0)}


def stream_pair_units(variant) -> bool:
    """Whether a stream build runs the PAIR_UNITS schedule: the whole-pair builds (SWAP_DECODE_WHOLE's ring) where
    SWAP_DECODE_WHOLE_UNITS is on (session 64). Public."""
    return SWAP_DECODE_WHOLE_UNITS and decode_base_kernel(variant.kernel) == SWAP_DECODE_STREAM_KERNEL and \
        replace(variant.config, block_m=8) == SWAP_DECODE_WHOLE.get(variant.head_dim)  # (any NQ: session 66)


def swap_decode_whole(head_dim: int, batch: int, heads: int, kv_heads: int, seq_k: int, sm_count: int) -> int:
    """Programs for attn_decode_sm90_stream on SWAP_DECODE_WHOLE's ring with whole (sequence, key/value head) pairs a
    program for a one-query call of grouped heads (SWAP_DECODE_MIN_GROUP-8 a group: session 66, groups of one), or 0
    (the comments above): first (sessions 64-66, the PAIR_UNITS schedule) SWAP_DECODE_WHOLE_SPREAD's balanced count
    where its keys, pairs and fill hold, else (session 63) a program a pair, or k pairs a program (pairs / k programs),
    else (session 66) that balanced count past the spread's pairs where SWAP_DECODE_WHOLE_SPREAD_MORE's keys and pairs
    hold; within the kernel's 32-bit schedule arithmetic (stream_schedule_fits, as swap_decode_stream). The API asks
    it before swap_decode_stream. Public: shapes and the SM count."""
    group = heads // kv_heads
    pairs = batch * kv_heads
    if not SWAP_DECODE or head_dim not in SWAP_DECODE_WHOLE or \
            not SWAP_DECODE_MIN_GROUP <= group <= SWAP_DECODE_MAX_GROUP:
        return 0
    least, every = SWAP_DECODE_WHOLE_KEYS[head_dim]
    lo, hi, most = SWAP_DECODE_WHOLE_BAND[head_dim]
    if pairs <= sm_count or seq_k < least:
        return 0
    n_prog = 0
    spread = SWAP_DECODE_WHOLE_SPREAD.get(head_dim) if SWAP_DECODE_WHOLE_UNITS else None

    def balanced(lo_s, hi_s):  # (sessions 64-66) the PAIR_UNITS schedule, balanced: k or k - 1 pairs a program
        least_s, most_s, per_sm, _, _, fill = spread
        if least_s <= seq_k <= most_s and lo_s * sm_count < pairs <= hi_s * sm_count:
            k = -(-pairs // int(per_sm * sm_count))
            n = -(-pairs // k)
            return n if n >= fill * per_sm * sm_count else 0
        return 0
    if spread:
        n_prog = balanced(spread[3], spread[4])
    keys, most_k, lo_k = SWAP_DECODE_WHOLE_K.get(head_dim, (0, 0, 0.0))
    if not n_prog and pairs <= SWAP_DECODE_WHOLE_MOST[head_dim] * sm_count and (
            seq_k <= every or (seq_k <= most and lo * sm_count < pairs <= hi * sm_count)):
        n_prog = pairs
    if not n_prog and seq_k <= keys:
        n_prog = next((pairs // k for k in range(2, most_k + 1)
                       if pairs % k == 0 and lo_k * sm_count < pairs // k <= hi * sm_count), 0)
    more_k, more_hi = SWAP_DECODE_WHOLE_SPREAD_MORE.get(head_dim, (0, 0.0))
    if not n_prog and spread and seq_k <= more_k:  # (session 66) past the spread's pairs, after session 63's branches
        n_prog = balanced(spread[4], more_hi)
    blocks = pairs * -(-seq_k // SWAP_DECODE_WHOLE[head_dim].block_n)
    return n_prog if n_prog and stream_schedule_fits(n_prog, blocks) else 0


def stream_schedule_fits(n_prog: int, blocks: int) -> bool:
    """Whether attn_decode_sm90_stream's 32-bit schedule arithmetic holds n_prog programs over `blocks` blocks (pairs x
    blocks a pair): its products reach (n_prog + 1) x blocks (a 64-bit division would compile to a CALL). Public."""
    return (n_prog + 1) * blocks < 1 << 31


def swap_decode_merge_build(head_dim: int, nq: int = 8) -> tuple:
    """(MAX_PARTS, CHUNK, PREFETCH, ASYNC, WIDE) of the shipped merged build at a head dim and NQ
    (sm90_decode.launch_args' default). Session 67: at NQ = 16 the merged build stages SWAP_DECODE_MERGE_PARTS x 8 // NQ
    parts (16 at D=128, 32 at D=64), so its staged states (MAX_PARTS x NQ x D fp32) are the NQ = 8 build's bytes; it
    runs the calls of fewer parts than swap_decode_split's (parts from SWAP_DECODE_SPLIT_MIN_PARTS go to the split
    build, whose MAX_PARTS is SWAP_DECODE_MERGE_PARTS at any NQ: it stages no states; decode_choice checks the
    count)."""
    return (SWAP_DECODE_MERGE_PARTS[head_dim] * 8 // max(8, nq), SWAP_DECODE_MERGE_CHUNK[head_dim],
            SWAP_DECODE_MERGE_PREFETCH[head_dim], SWAP_DECODE_MERGE_ASYNC[head_dim], SWAP_DECODE_MERGE_WIDE[head_dim])


def swap_decode_split(head_dim: int, n_parts: int) -> int:
    """The slices of attn_decode_sm90_split's merge for a merged call of n_parts parts (decode_parts' count), 0 where
    attn_decode_sm90_merged runs it (SWAP_DECODE_SPLIT, from SWAP_DECODE_SPLIT_MIN_PARTS parts). Public."""
    split = SWAP_DECODE_SPLIT.get(head_dim, 0) if SWAP_DECODE_MERGE else 0
    least = max(split, SWAP_DECODE_SPLIT_MIN_PARTS)
    return split if split and least <= n_parts <= SWAP_DECODE_MERGE_PARTS[head_dim] else 0


def swap_decode_merged(head_dim: int, parts: int) -> bool:
    """Whether a swap decode call of `parts` parts (swap_decode_parts') merges them in the launch
    (attn_decode_sm90_merged: SWAP_DECODE_MERGE, at SWAP_DECODE_MERGE_DIMS, up to SWAP_DECODE_MERGE_PARTS parts) rather
    than by the combine's second launch. Public."""
    return SWAP_DECODE_MERGE and head_dim in SWAP_DECODE_MERGE_DIMS and parts <= SWAP_DECODE_MERGE_PARTS[head_dim]


def swap_decode_parts(head_dim: int, batch: int, heads: int, kv_heads: int, seq_k: int, sm_count: int) -> int:
    """Parts for the swapped-GEMM decode kernel of a call of one query per sequence whose query heads are packed per
    key/value head (api.pack_gqa; session 66: or a group of one, api.mha_decode), or 0 where the forward kernels run
    it: the first of SWAP_DECODE_PARTS[head_dim] whose (sequence, key/value head) pairs x parts fill the SMs (more than FEW_ROWS_QUAD_CTAS scaled to the SM count,
    at most the SMs), else SWAP_DECODE_HALF_FILL's parts where pairs x parts is half of that; from 4 pairs and
    SWAP_DECODE_MIN_KEYS keys (SWAP_DECODE_LEAST_KEYS where it lists the head dim and parts: 16 and 8 parts from
    1,024, 4 from 512, D=64's 32 from 1,024); two pairs as SWAP_DECODE_TWO_PAIRS says; pair counts that none of those
    part counts fills take sm_count // pairs parts (at most the merged build's) where a tier of SWAP_DECODE_FILL holds
    their pairs and keys; more pairs than SMs: 0 (swap_decode_stream's stream build or the forward kernels; session
    61's SWAP_DECODE_OVER parts went in session 62). Public: shapes and the SM count."""
    group = heads // kv_heads
    pairs = batch * kv_heads
    if not SWAP_DECODE or head_dim not in SWAP_DECODE_DIMS or \
            not SWAP_DECODE_MIN_GROUP <= group <= SWAP_DECODE_MAX_GROUP:
        return 0
    if pairs == 2 and head_dim in SWAP_DECODE_TWO_PAIRS:
        parts, least = SWAP_DECODE_TWO_PAIRS[head_dim]
        return parts if seq_k >= least and pairs * parts <= sm_count else 0
    if pairs < SWAP_DECODE_MIN_PAIRS:
        return 0
    if pairs > sm_count:
        return 0
    least_full = FEW_ROWS_QUAD_CTAS * sm_count // 132
    parts = next((p for p in SWAP_DECODE_PARTS[head_dim] if least_full < pairs * p <= sm_count), 0)
    half = SWAP_DECODE_HALF_FILL.get(head_dim)
    if not parts and half and least_full // 2 < pairs * half <= sm_count // 2:
        parts = half
    if not parts:  # sessions 59-60: sm_count // pairs parts (SWAP_DECODE_FILL's tiers of pairs and keys)
        fill = min(sm_count // pairs, SWAP_DECODE_MERGE_PARTS[head_dim])
        ok = SWAP_DECODE_FILL_PAIRS <= pairs and fill >= 2 and any(
            pairs <= most_pairs and least_keys <= seq_k and (most_keys is None or seq_k <= most_keys)
            for most_pairs, least_keys, most_keys in SWAP_DECODE_FILL.get(head_dim, ()))
        return fill if ok else 0
    least = SWAP_DECODE_LEAST_KEYS.get((head_dim, parts), SWAP_DECODE_MIN_KEYS)
    return parts if parts and seq_k >= least else 0


def decode_nq(group: int) -> int:
    """The swap decode kernels' NQ (query columns of S^T and O^T) for a group of query heads: the least power of two
    of at least max(8, group) (the WGMMA's N; sm90_decode's launchers take it from here). Public."""
    return max(8, 1 << (group - 1).bit_length())


def decode_variant(dtype: torch.dtype, head_dim: int, merged: bool = False, split: bool = False,
                   stream: bool = False, whole: bool = False, nq: int = 8) -> Variant:
    """The swapped-GEMM decode kernel's build for a dtype and head dim (one binary: group, parts and shapes are
    arguments); merged: the build that merges the parts in the launch (SWAP_DECODE_MERGE); split (with merged): the
    one whose merge is spread over SWAP_DECODE_SPLIT programs; stream: attn_decode_sm90_stream's; whole (with stream):
    its build on SWAP_DECODE_WHOLE's ring (whole pairs a program: swap_decode_whole); nq: its query columns
    (decode_nq of the group; the config's block_m; session 66: 16 for groups of 9-16, on SWAP_DECODE_NQ16_KERNELS)."""
    kernel = SWAP_DECODE_STREAM_KERNEL if stream else SWAP_DECODE_SPLIT_KERNEL if merged and split else \
        SWAP_DECODE_MERGED_KERNEL if merged else None
    if kernel:  # the builds that merge in the launch: out and LSE secret too, their done-words public (the PAIR_UNITS
        # builds read none: stream_pair_units)
        cfg = SWAP_DECODE_WHOLE[head_dim] if whole else SWAP_DECODE_CONFIG
        return Variant(kernel, replace(cfg, block_m=nq), dtype, head_dim, False,
                       secret_args=("Q", "K", "V", "WS_O", "WS_L", "O", "LSE"),
                       public_loads=() if whole and SWAP_DECODE_WHOLE_UNITS else ("FLAGS",))
    return Variant(SWAP_DECODE_KERNEL, replace(SWAP_DECODE_CONFIG, block_m=nq), dtype, head_dim, False,
                   secret_args=("Q", "K", "V", "WS_O", "WS_L"))


def decode_choice(dtype: torch.dtype, head_dim: int, batch: int, heads: int, kv_heads: int, seq_k: int,
                  sm_count: int):
    """(variant, n) of the swapped-GEMM decode kernels for a one-query call of `heads` query heads over `kv_heads`
    (api.pack_gqa's groups; api.mha_decode's groups of one), or None where the forward kernels run it. In order:
    swap_decode_whole's whole pairs a program (n: programs), swap_decode_stream's stream build (n: programs),
    swap_decode_parts' parts (n: parts; the merged, split or plain build as swap_decode_merged / swap_decode_split say);
    each only where decode_build_ok allows the build at the group's NQ (session 66: groups of 9-16 have NQ = 16 forms of
    the split, stream and whole-pair builds only). Public: shapes, the SM count."""
    from .sm90_decode import decode_parts
    nq = decode_nq(heads // kv_heads)
    n = swap_decode_whole(head_dim, batch, heads, kv_heads, seq_k, sm_count)
    if n:  # (session 63) whole pairs a program
        v = decode_variant(dtype, head_dim, stream=True, whole=True, nq=nq)
        if decode_build_ok(v):
            return v, n
    n = swap_decode_stream(head_dim, batch, heads, kv_heads, seq_k, sm_count)
    if n:  # (session 61) the flat schedule
        v = decode_variant(dtype, head_dim, stream=True, nq=nq)
        if decode_build_ok(v):
            return v, n
    parts = swap_decode_parts(head_dim, batch, heads, kv_heads, seq_k, sm_count)
    if parts:
        merged = swap_decode_merged(head_dim, parts)
        even = swap_decode_even(batch * kv_heads, parts, sm_count)
        n_parts = decode_parts(seq_k, parts, SWAP_DECODE_CONFIG.block_n, even)[0]
        split = merged and bool(swap_decode_split(head_dim, n_parts))
        v = decode_variant(dtype, head_dim, merged, split, nq=nq)
        fits = not merged or split or n_parts <= swap_decode_merge_build(head_dim, nq)[0]  # (session 67: NQ = 16)
        if decode_build_ok(v) and fits:
            return v, parts
    return None


# Session 67: flash_attn_with_kvcache's decode steps (one query a sequence, per-sequence cache lengths) on the merged
# and split builds' KV-cache forms (sm90_decode VARLEN: each sequence's own key rows from api._kvcache_bounds' (start,
# end) rows, declared public, split in the rule's parts in the kernel), where the dense rule (decode_choice at the
# cache's length) gives those builds; elsewhere (the forward kernels' and the whole-pair and stream builds' pair counts,
# groups of 9-16, paged caches, cache_batch_idx, windows, soft-caps, num_splits > 0) the varlen route as before.
# scripts/decode_api_ab.py (H200, graph replay, 32 / 8 heads, full caches, us: with_kvcache before (call 4) -> after
# (call 6) / flash_attn_func / cuDNN): D=128 (1, 4096) 16.2 -> 9.3 / 7.9 / 10.7, (1, 32768) 42.4 -> 38.4 / 36.5 / 39.5,
# (4, 16384) 75.1 -> 68.7 / 66.5 / 68.6; D=64 (1, 4096) 13.7 -> 8.6 / 7.2 / 8.8, (4, 16384) 49.7 -> 38.7 / 36.5 / 37.7.
# (api._PLANS.clear() after changing.)
SWAP_DECODE_KV = True
# Session 67 prepared, session 68 measured and shipped: where the dense rule takes no parts (from about 33 pairs: the
# forward kernels' packed tiles, then the stream / whole-pair builds; none has a KV-cache form) the KV-cache call kept
# the varlen route, 4-54% behind flash_attn_func at 64-512 pairs. Calls of up to SWAP_DECODE_KV_FILL x the SMs' pairs
# that no dense parts rule takes run the merged KV-cache build in max(1, SMs // pairs) parts (at most the cache's key
# blocks; no new binary). Session 68 calls 1-2 (scripts/decode_api_ab.py --kv-fill / --kv-parts 1,2,3,4,6, H200, graph
# replay, 32 / 8 heads, full caches, us: the varlen route / SMs // pairs parts / flash_attn_func): D=128 (5 sequences,
# 4,096 keys) 39.2 / 28.3 / 26.2, (8, 1,024) 16.3 / 11.3 / 10.5, (16, 4,096) 75.3 / 67.6 / 63.8, (32, 1,024) 47.9 /
# 42.0 / 34.5; D=64 (8, 4,096) 31.2 / 23.6 / 21.8, (16, 16,384) 137.4 / 124.2 / 123.2, (32, 4,096) 79.1 / 71.7 / 63.8;
# every count of 1-6 parts at least as good as SMs // pairs but D=128 (12, 4,096): 2 parts 58.0, 1 part 59.8 (varlen
# 63.5). At 512 pairs (64 sequences, 1,024 keys) one part a pair loses (D=128 77.8 against 70.6, D=64 50.3 against
# 48.7): the fill stops at twice the SMs' pairs. 0: off. Call 5 (--kv-parts 1,2,3 --kv-nofill at 136-224 pairs, us:
# 1 / 2 / 3 parts / the varlen route): D=64 (17 sequences, 2,048 keys) 38.0 / 34.4 / 32.9 / 31.0, (20, 2,048) 38.7 /
# 36.5 / 37.3 / 33.9, (24, 4,096) 66.5 / 61.7 / 66.6 / 60.6, (28, 2,048) 40.3 / 46.9 / 48.3 / 44.4: D=64 takes no fill
# past the SMs' pairs below 1.7x them (SWAP_DECODE_KV_FILL_SKIP); D=128 (17, 2,048) 53.7 / 49.3 / 46.0 / 57.7, (20,
# 2,048) 57.3 / 53.1 / 51.9 / 63.6, (24, 2,048) 58.9 / 60.5 / 59.6 / 65.4, (28, 4,096) 120.0 / 122.0 / 120.7 / 122.8:
# D=128 runs 3 parts up to 1.25x the SMs' pairs (SWAP_DECODE_KV_FILL_TAIL: the one part's second wave holds few
# programs), SMs // pairs past that.
SWAP_DECODE_KV_FILL = 2
SWAP_DECODE_KV_FILL_SKIP = {64: 1.7}  # (session 68) no fill from the SMs' pairs (exclusive) to this x them
SWAP_DECODE_KV_FILL_TAIL = {128: (1.25, 3)}  # (session 68) past the SMs' pairs up to x[0] them: x[1] parts
SWAP_DECODE_KV_KERNELS = {"attn_decode_sm90_merged": "attn_decode_sm90_merged_kv",
                          "attn_decode_sm90_split": "attn_decode_sm90_split_kv",
                          "attn_decode_sm90_stream": "attn_decode_sm90_stream_kv"}
# (Session 68) the whole-pair builds' KV-cache form (sm90_decode.attn_decode_sm90_stream VARLEN, PAIR_UNITS: each
# pair's blocks its own sequence's) where decode_choice at the cache's length gives the whole-pair builds (from about
# 1.03x the SMs' pairs; before, the fill or the varlen route). Call 6 (scripts/decode_api_ab.py --kv-nowhole, H200,
# graph replay, 32 / 8 heads, full caches, us: with_kvcache / off / the dense route (an int cache_seqlens) / cuDNN):
# D=128 (17 sequences, 2,048 keys) 42.7 / 45.7 / 41.0 / 38.4, (32, 1,024) 36.9 / 42.1 / 36.6 / 35.6, (64, 1,024) 66.8
# / 70.7 / 66.5 / 65.8, (256, 1,024) 249.6 / 248.4 / 247.5 / 241.4; D=64 (17, 2,048) 26.0 / 31.3 / 25.3 / 24.6, (32,
# 1,024) 22.5 / 28.4 / 22.3 / 20.3, (64, 1,024) 38.1 / 48.6 / 37.9 / 35.3, (64, 4,096) 127.8 / 140.6 / 127.4 / 122.6:
# x1.01-1.28 over off in the 16 cells it takes (x0.995 at D=128 (256, 1,024): noise), within 0.2-4% of the dense
# route there; still 0-11% behind cuDNN (the dense route's own gap, and kvcache_bounds' launch: flash_attn_func 2 us
# ahead of the int route).
SWAP_DECODE_KV_WHOLE = True
# (Session 68, prepared; session 69: measured, on in calls 1-9, off at the end, below.) Paged caches (block_table) on
# the whole-pair builds' KV-cache form: attn_decode_sm90_stream PAGED (each block's page from the block table, pages
# a power of two rows and a multiple of the build's key block: 64 at D=128, 128 at D=64), where decode_kv_choice at the logical capacity gives that form;
# elsewhere paged calls keep the varlen route. Session 69 call 1 (scripts/decode_api_ab.py --paged 256, H200, graph
# replay, 32 / 8 heads, full caches in shuffled pages of 256 rows, us: paged on / off / the contiguous cache's call):
# D=128 (20 sequences, 8,192 keys) 165.2 / 220.5 / 161.7, (50, 2,048) 102.2 / 120.4 / 102.1; D=64 (20, 8,192) 88.1 /
# 107.6 / 86.4, (50, 2,048) 57.4 / 68.5 / 56.8: x1.18-1.33 where it applies, within 1-2% of the contiguous cache; the
# GPU test (3 cases) passed, racecheck clean on the KV-cache forms. Off at the session's end (with SWAP_DECODE_KV_PAGED_
# STREAM and _PARTS below): the paged forms kept no eager call plan (call 10: the plan tests failed on their counts at
# the parts forms' cells), so repeated eager paged calls took the checked path (session 35: about 170 us of host time a
# paged call against about 80 planned) where the varlen route's plan skips it; their Kept now takes the block table
# (the plan keeps it), not yet run on a GPU (scripts/session69_run11.sh; no device time was left). On again once that
# run passes: every paged form's builds are audited offline by test_decode_kv_paged_form meanwhile.
SWAP_DECODE_KV_PAGED = False
SWAP_DECODE_KV_PAGED_KERNELS = {"attn_decode_sm90_stream": "attn_decode_sm90_stream_kvp",
                                "attn_decode_sm90_merged": "attn_decode_sm90_merged_kvp",  # (session 69)
                                "attn_decode_sm90_split": "attn_decode_sm90_split_kvp"}
# (Session 69) the stream build's KV-cache form (attn_decode_sm90_stream VARLEN on its flat schedule: the dense call's
# schedule at the cache's length, a block past its sequence's keys neither loaded nor computed) where decode_choice at
# the cache's length gives the stream build past the SMs' pairs (before: the fill up to 2x them, else the varlen route,
# 20-30% behind flash_attn_func at 272-320 pairs in call 1). Call 3 (scripts/decode_api_ab.py --kv-nostream --half,
# H200, graph replay, 32 / 8 heads, us: on / off, full caches; half-filled): D=128 (17 sequences, 4,096 keys) 74.7 /
# 79.9; 45.3 / 45.7, (34, 4,096) 137.2 / 178.9; 77.5 / 93.5, (40, 16,384) 597.5 / 726.0; 329.5 / 371.7; D=64 (17,
# 4,096) 43.2 / 49.6; 28.5 / 30.4: x1.01-1.30, within 1-2% of flash_attn_func on full caches. At the SMs' pairs or
# fewer (the dense rule's program a pair, SWAP_DECODE_ONE) it tied the fill on full caches and lost on half-filled ones
# (D=128 (16, 4,096) 40.8 / 38.5, (9, 2,048) 16.6 / 15.0; D=64 (16, 4,096) 25.0 / 22.0: the skipped blocks' loop
# steps), so not there. Call 2's first form loaded the skipped blocks from past the cache's rows (TMA zero-fill): on
# half-filled caches barely faster than on full ones (D=128 (16, 4,096) 60.6 against 66.3 full).
SWAP_DECODE_KV_STREAM = True
# (Session 69) and at D=64 from 2x to SWAP_DECODE_KV_STREAM_WIDE x the SMs' pairs, from SWAP_DECODE_STREAM's keys, where
# the dense rule runs the forward kernels (packed grouped heads: no KV-cache form) and no whole-pair rule is: the stream
# build's form in SWAP_DECODE_STREAM_PER_SM x SMs programs. Call 5 (decode_api_ab.py --kv-stream 264, us: the form / the
# varlen route / flash_attn_func): (34, 4,096) 76.6 / 85.1 / 72.1, (34, 8,192) 140.5 / 155.1 / 137.3, (40, 4,096) 88.8
# / 95.0 / 80.7, (40, 16,384) 313.2 / 317.6 / 301.2 (132 programs: 75.5 at (34, 4,096), 314.5 at (40, 16,384)).
SWAP_DECODE_KV_STREAM_WIDE = {64: 2.5}
# (Session 69) paged caches on the stream build's KV-cache form too (PAGED on its flat schedule over the logical
# capacity), where decode_kv_choice at the logical capacity gives that form and the page is a power of two rows holding
# whole 128-key blocks. Call 8 (decode_api_ab.py --paged 256, us: paged / the varlen route / the contiguous cache):
# D=128 (17, 4,096) 76.0 / 104.5 / 75.0, (34, 4,096) 139.7 / 184.7 / 137.5, (40, 16,384) 607.4 / 770.8 / 599.6; D=64
# (34, 4,096) 77.6 / 94.5 / 76.4, (40, 16,384) 318.7 / 373.1 / 311.5: x1.17-1.38, within 1-2% of the contiguous cache.
SWAP_DECODE_KV_PAGED_STREAM = True
# (Session 69) and on the merged and split builds' KV-cache forms (PAGED in _run_part), where decode_kv_choice at the
# logical capacity gives them (the parts and fill rules) and the page is a power of two rows holding whole 128-key
# blocks. Call 9 (decode_api_ab.py --paged 256, us: paged / the varlen route / the contiguous cache): D=128 (1, 8,192)
# 11.3 / 18.9 / 10.9, (8, 4,096) 39.4 / 48.5 / 39.1, (16, 4,096) 69.1 / 78.3 / 68.6; D=64 (1, 8,192) 10.7 / 15.1 /
# 10.3, (4, 4,096) 13.8 / 18.4 / 13.4: x1.13-1.67, within 0.5 us of the contiguous cache. Off: the paged forms keep
# no call plan (api._kvcache_planned), so a repeated eager call of few sequences would take the checked path every time
# where the varlen route's plan skips it (call 10: test_gpu_kvcache_plan_matches_the_checked_call[paged] and
# test_gpu_kvcache_plan_in_cuda_graph[True] failed on their plan counts, outputs equal); on once the paged forms keep
# a plan (their builds are audited offline by test_decode_kv_paged_form, and not shipped while off).
SWAP_DECODE_KV_PAGED_PARTS = False


def decode_base_kernel(kernel: str) -> str:
    """The kernel a build's name launches: a KV-cache form's (SWAP_DECODE_KV_KERNELS: the merged, split or stream kernel,
    with VARLEN; SWAP_DECODE_KV_PAGED_KERNELS: the stream kernel, PAGED), else the name itself. Public."""
    return next((base for kinds in (SWAP_DECODE_KV_KERNELS, SWAP_DECODE_KV_PAGED_KERNELS)
                 for base, name in kinds.items() if name == kernel), kernel)


def decode_kv_variant(dtype: torch.dtype, head_dim: int, split: bool, nq: int = 8, whole: bool = False,
                      paged: bool = False, stream: bool = False) -> Variant:
    """The KV-cache form (session 67) of the merged build (split: the split one; whole, session 68: the whole-pair
    build, SWAP_DECODE_WHOLE's ring, PAIR_UNITS) at a dtype and head dim: the same kernel launched with VARLEN and its
    key rows (BOUNDS) declared public. stream (session 69, SWAP_DECODE_KV_STREAM): the stream build's (its flat schedule
    over the caches' blocks; done-words public). paged (with whole, session 68; session 69 with stream and the merged
    / split builds: SWAP_DECODE_KV_PAGED, SWAP_DECODE_KV_PAGED_STREAM, SWAP_DECODE_KV_PAGED_PARTS): its PAGED form, the
    block table public too."""
    if whole or stream:
        kernel = (SWAP_DECODE_KV_PAGED_KERNELS if paged else SWAP_DECODE_KV_KERNELS)[SWAP_DECODE_STREAM_KERNEL]
        config = SWAP_DECODE_WHOLE[head_dim] if whole else SWAP_DECODE_CONFIG
        loads = (() if whole else ("FLAGS",)) + ("BOUNDS",) + (("BLOCK_TABLE",) if paged else ())  # (PAIR_UNITS: no
        # done-word)
    else:
        kernel = (SWAP_DECODE_KV_PAGED_KERNELS if paged else SWAP_DECODE_KV_KERNELS)[
            SWAP_DECODE_SPLIT_KERNEL if split else SWAP_DECODE_MERGED_KERNEL]
        config, loads = SWAP_DECODE_CONFIG, ("FLAGS", "BOUNDS") + (("BLOCK_TABLE",) if paged else ())
    return Variant(kernel, replace(config, block_m=nq), dtype, head_dim, False,
                   secret_args=("Q", "K", "V", "WS_O", "WS_L", "O", "LSE"), public_loads=loads)


def decode_kv_choice(dtype: torch.dtype, head_dim: int, batch: int, heads: int, kv_heads: int, seq_k: int,
                     sm_count: int):
    """(variant, parts) of the KV-cache builds for a one-query flash_attn_with_kvcache call against caches of seq_k
    rows (the rule reads the cache's length: the lengths are on the device), or None (the varlen route): where
    decode_choice's route at seq_k keys is the parts (not the whole-pair or stream builds), merged in the launch, at
    NQ = 8 (groups of 1-8); the split build from swap_decode_split's parts, the merged one up to its MAX_PARTS;
    (session 68) the whole-pair build's KV-cache form (n: programs) where that route is its whole-pair builds; (session
    69, SWAP_DECODE_KV_STREAM) the stream build's (n: programs) where that route is the stream build past the SMs'
    pairs, and at SWAP_DECODE_KV_STREAM_WIDE's head dims past twice them where it is the forward kernels.
    (Session 68) up to SWAP_DECODE_KV_FILL x the SMs' pairs, where no dense parts rule takes the call, the merged (or
    split) build in max(1, SMs // pairs) parts (SWAP_DECODE_KV_FILL_TAIL's just past the SMs' pairs; none in
    SWAP_DECODE_KV_FILL_SKIP's band), at most the cache's key blocks. Public: shapes, the SM count."""
    if not SWAP_DECODE_KV or decode_nq(heads // kv_heads) != 8 or head_dim not in SWAP_DECODE_DIMS:
        return None
    pairs = batch * kv_heads
    whole = swap_decode_whole(head_dim, batch, heads, kv_heads, seq_k, sm_count)
    if whole and SWAP_DECODE_KV_WHOLE and head_dim in SWAP_DECODE_WHOLE and \
            stream_pair_units(decode_variant(dtype, head_dim, stream=True, whole=True)):  # (session 68)
        return decode_kv_variant(dtype, head_dim, False, whole=True), whole
    other = whole or swap_decode_stream(head_dim, batch, heads, kv_heads, seq_k, sm_count)
    if other and not whole and SWAP_DECODE_KV_STREAM and head_dim in SWAP_DECODE_STREAM and pairs > sm_count:
        return decode_kv_variant(dtype, head_dim, False, stream=True), other
    wide = SWAP_DECODE_KV_STREAM_WIDE.get(head_dim, 0) if SWAP_DECODE_KV_STREAM else 0
    if not other and wide and 2 * sm_count < pairs <= wide * sm_count and seq_k >= SWAP_DECODE_STREAM[head_dim] and \
            SWAP_DECODE_MIN_GROUP <= heads // kv_heads and \
            not swap_decode_parts(head_dim, batch, heads, kv_heads, seq_k, sm_count):  # (session 69)
        n_prog = SWAP_DECODE_STREAM_PER_SM[head_dim] * sm_count
        if stream_schedule_fits(n_prog, pairs * -(-seq_k // SWAP_DECODE_CONFIG.block_n)):
            return decode_kv_variant(dtype, head_dim, False, stream=True), n_prog
    parts = 0 if other else swap_decode_parts(head_dim, batch, heads, kv_heads, seq_k, sm_count)
    if not parts and SWAP_DECODE_KV_FILL and SWAP_DECODE_MIN_GROUP <= heads // kv_heads and \
            pairs <= SWAP_DECODE_KV_FILL * sm_count and \
            not sm_count < pairs < SWAP_DECODE_KV_FILL_SKIP.get(head_dim, 0) * sm_count:
        blocks = -(-seq_k // SWAP_DECODE_CONFIG.block_n)
        upto, tail = SWAP_DECODE_KV_FILL_TAIL.get(head_dim, (0, 0))
        want = tail if sm_count < pairs <= upto * sm_count else sm_count // pairs
        parts = max(1, min(want, SWAP_DECODE_MERGE_PARTS[head_dim], blocks))
    if not parts or not swap_decode_merged(head_dim, parts):
        return None
    split = bool(swap_decode_split(head_dim, parts))
    if not split and parts > swap_decode_merge_build(head_dim)[0]:
        return None
    return decode_kv_variant(dtype, head_dim, split), parts


def decode_kv_paged_choice(dtype: torch.dtype, head_dim: int, batch: int, heads: int, kv_heads: int, capacity: int,
                           page: int, sm_count: int):
    """(Prepared in session 68, off: SWAP_DECODE_KV_PAGED.) (variant, programs) of the paged whole-pair KV-cache build
    for a one-query flash_attn_with_kvcache call on a paged cache of `capacity` logical rows a sequence in pages of
    `page` rows, where decode_kv_choice at that capacity gives the whole-pair form (session 69: or the stream build's,
    SWAP_DECODE_KV_PAGED_STREAM, or the merged / split builds', SWAP_DECODE_KV_PAGED_PARTS) and the page holds whole
    key blocks; else None (the varlen route). Public: shapes, the SM count."""
    if not SWAP_DECODE_KV_PAGED:
        return None
    choice = decode_kv_choice(dtype, head_dim, batch, heads, kv_heads, capacity, sm_count)
    if choice is None or page % choice[0].config.block_n or page & (page - 1):
        return None
    base = decode_base_kernel(choice[0].kernel)
    if base != SWAP_DECODE_STREAM_KERNEL:  # (session 69) the merged / split builds' paged form
        if not SWAP_DECODE_KV_PAGED_PARTS:
            return None
        return decode_kv_variant(dtype, head_dim, base == SWAP_DECODE_SPLIT_KERNEL, paged=True), choice[1]
    whole = stream_pair_units(choice[0])
    if not whole and not SWAP_DECODE_KV_PAGED_STREAM:
        return None
    return decode_kv_variant(dtype, head_dim, False, whole=whole, stream=not whole, paged=True), choice[1]


def decode_variants():
    """Every swapped-GEMM decode build the API can launch (its combine is a varlen_variants build), with the merged
    builds (SWAP_DECODE_MERGE, SWAP_DECODE_MERGE_DIMS), the split ones, the stream ones (SWAP_DECODE_STREAM) and the
    stream kernel's whole-pair ones (SWAP_DECODE_WHOLE); (session 66) the NQ = 16 forms of those decode_build_ok
    allows (SWAP_DECODE_NQ16_KERNELS' builds, groups of 9-16, where SWAP_DECODE_MAX_GROUP passes 8); (session 67) the
    merged and split builds' KV-cache forms (decode_kv_variant, SWAP_DECODE_KV); (session 68) the whole-pair builds'
    and their paged forms; (session 69) the stream builds'."""
    nq8 = [decode_variant(dt, d) for dt in DTYPES for d in SWAP_DECODE_DIMS] + \
        [decode_variant(dt, d, True) for dt in DTYPES for d in SWAP_DECODE_MERGE_DIMS] + \
        [decode_variant(dt, d, True, True) for dt in DTYPES for d in SWAP_DECODE_MERGE_DIMS
         if SWAP_DECODE_SPLIT.get(d)] + \
        [decode_variant(dt, d, stream=True) for dt in DTYPES for d in SWAP_DECODE_STREAM] + \
        [decode_variant(dt, d, stream=True, whole=True) for dt in DTYPES for d in SWAP_DECODE_WHOLE]
    nq16 = (replace(v, config=replace(v.config, block_m=16)) for v in nq8)
    kv = [decode_kv_variant(dt, d, split) for dt in DTYPES for d in SWAP_DECODE_MERGE_DIMS
          for split in (False, True) if SWAP_DECODE_KV and (not split or SWAP_DECODE_SPLIT.get(d))] + \
        [decode_kv_variant(dt, d, False, whole=True) for dt in DTYPES for d in SWAP_DECODE_WHOLE
         if SWAP_DECODE_KV and SWAP_DECODE_KV_WHOLE] + \
        [decode_kv_variant(dt, d, False, whole=True, paged=True) for dt in DTYPES for d in SWAP_DECODE_WHOLE
         if SWAP_DECODE_KV and SWAP_DECODE_KV_WHOLE and SWAP_DECODE_KV_PAGED] + \
        [decode_kv_variant(dt, d, False, stream=True) for dt in DTYPES for d in SWAP_DECODE_STREAM
         if SWAP_DECODE_KV and SWAP_DECODE_KV_STREAM] + \
        [decode_kv_variant(dt, d, False, stream=True, paged=True) for dt in DTYPES for d in SWAP_DECODE_STREAM
         if SWAP_DECODE_KV and SWAP_DECODE_KV_STREAM and SWAP_DECODE_KV_PAGED and SWAP_DECODE_KV_PAGED_STREAM] + \
        [decode_kv_variant(dt, d, split, paged=True) for dt in DTYPES for d in SWAP_DECODE_MERGE_DIMS
         for split in (False, True) if SWAP_DECODE_KV and SWAP_DECODE_KV_PAGED and SWAP_DECODE_KV_PAGED_PARTS and
         (not split or SWAP_DECODE_SPLIT.get(d))]
    return nq8 + [v for v in nq16 if decode_build_ok(v)] + kv


def decode_build_ok(variant) -> bool:
    """Whether the API may launch a decode build: NQ = 8 (groups of 1-8), or (session 66) NQ = 16 on the kernels of
    SWAP_DECODE_NQ16_KERNELS (groups of 9-16 up to SWAP_DECODE_MAX_GROUP). Public."""
    nq = variant.config.block_m
    return nq == 8 or (nq == 16 and SWAP_DECODE_MAX_GROUP > 8 and variant.kernel in SWAP_DECODE_NQ16_KERNELS)


def audited_variants():
    """Every binary the API can launch: the shipped (B, S, H, D) variants, the varlen ones and the swapped-GEMM decode
    builds."""
    return shipped_variants() + varlen_variants() + decode_variants()


def use_short_tiles(head_dim: int, causal: bool, seq_k: int) -> bool:
    if causal:
        return seq_k <= SHORT_SEQ_K_CAUSAL or head_dim >= 192
    return seq_k <= SHORT_SEQ_K


def use_long_tiles(head_dim: int, causal: bool, seq_k: int) -> bool:
    """select's long-sequence build (SM90_GLUON_LONG) for these keys on sm_90: past GLUON_LONG_SEQ_K (public)."""
    return head_dim in SM90_GLUON_LONG and seq_k > GLUON_LONG_SEQ_K[causal]


def select(dtype: torch.dtype, head_dim: int, causal: bool, interpreter: bool, seq_k: int = 0,
           sm90: bool = False) -> Variant:
    """The variant for a call; only public values (dtype, head dim, flags, sequence length, the GPU's
    architecture) decide. sm90: the GPU is a Hopper (compute capability 9.0), where the Gluon kernel runs."""
    if interpreter:
        kernel, config = INTERPRETER_DEFAULT
    elif sm90 and head_dim in SM90_GLUON_QD and GLUON_SHORT_SEQ_K < seq_k <= GLUON_QD_MAX_SEQ_K:
        kernel, config = SM90_GLUON_QD[head_dim]
    elif sm90 and (head_dim, causal) in SM90_GLUON_BY_CAUSAL and seq_k > GLUON_SHORT_SEQ_K:
        kernel, config = SM90_GLUON_BY_CAUSAL[(head_dim, causal)]
    elif sm90 and head_dim in SM90_GLUON and seq_k > GLUON_SHORT_SEQ_K:
        kernel, config = SM90_GLUON[head_dim]
    elif sm90 and (head_dim, causal) in SM90_GLUON_SHORT:
        kernel, config = SM90_GLUON_SHORT[(head_dim, causal)]
    elif sm90 and use_long_tiles(head_dim, causal, seq_k):
        kernel, config = SM90_GLUON_LONG[head_dim]
    else:
        kernel, config = (SM90_SHORT if use_short_tiles(head_dim, causal, seq_k) else SM90_DEFAULTS)[head_dim]
    return Variant(kernel, config, dtype, head_dim, causal)


def few_rows_variant(dtype: torch.dtype, head_dim: int, causal: bool, seq_q: int, seq_k: int, heads=None,
                     sm_count=None):
    """The variant for calls of at most FEW_PROGRAMS_ROWS queries per head (SM90_ONE_TILE; non-causal, SM90_ONE_TILE_FULL
    too), or of at most twice that past the short-tile lengths (SM90_TWO_TILES), or of at most GLUON_LONG_MIN_SEQ_Q where
    select's long-sequence build runs at the short tiles' lengths (the short tiles, as before session 26; non-causal
    with `heads` (B x H) and sm_count given, the 128-row build where long_tiles_fill's model, without the 192-row build,
    takes it: FEW_ROWS_FILL), else None. Public: shapes and the GPU."""
    if seq_q <= FEW_PROGRAMS_ROWS and head_dim in SM90_ONE_TILE:
        return Variant(*SM90_ONE_TILE[head_dim], dtype, head_dim, causal)
    if seq_q <= FEW_PROGRAMS_ROWS and not causal and head_dim in SM90_ONE_TILE_FULL:
        return Variant(*SM90_ONE_TILE_FULL[head_dim], dtype, head_dim, causal)
    if seq_q <= 2 * FEW_PROGRAMS_ROWS and head_dim in SM90_TWO_TILES and not use_short_tiles(head_dim, causal, seq_k):
        return Variant(*SM90_TWO_TILES[head_dim], dtype, head_dim, causal)
    if seq_q <= GLUON_LONG_MIN_SEQ_Q and use_long_tiles(head_dim, causal, seq_k) and \
            use_short_tiles(head_dim, causal, seq_k):
        if FEW_ROWS_FILL and not causal and heads is not None and sm_count is not None:
            best = _fill_build(head_dim, seq_q, seq_k, heads, sm_count, long=False)
            return Variant(*best, dtype, head_dim, causal)
        return Variant(*SM90_SHORT[head_dim], dtype, head_dim, causal)
    return None


# Where select's long-sequence build (SM90_GLUON_LONG: 192-row tiles, one persistent program an SM) and the short tiles
# (64-row tiles, up to four CTAs an SM) may both run (non-causal, GLUON_LONG_SEQ_K < seq_k <= SHORT_SEQ_K), a grid of few
# heads leaves the persistent build's last wave nearly empty: (1,8,4096,64) is 176 tiles of 192 rows on 132 SMs, two
# waves for 1.33 waves of work. There the short tiles run (long_tiles_fill). The rule compares the persistent build's
# waves, ceil(T3 / SMs), with the short tiles' most tiles on one SM in the same unit, ceil(T1 / SMs) / 3 (T3, T1: the
# 192- and 64-row tiles; the short tiles' CTAs on one SM share it), times LONG_TILES_EDGE: the short tiles take 1.16 of
# the 192-row build's time per row in full waves (session 45 call 5, fitted over 2,048 and 4,096 keys); ties go to the
# 192-row build. Call 6 checked it on shapes outside the fit: the API with it against without, 2,048 keys, 40 heads 104.0
# / 112.0 us (short tiles), 10 heads 32.75 / 30.51 (the short tiles, by a first form of the rule that took their work as
# T1 / (3 x SMs): wrong there, 320 tiles leave some SMs three and others two; this form keeps the 192-row build), 4,096
# keys, 20 heads 201.7 / 207.7 (short tiles), 3,000 keys, 8 heads 44.35 / 44.09 (the 192-row build both). Call 5 (H100, graph
# replay, 9 interleaved rounds, B = 1, us, 192-row build / short tiles / cuDNN): 2,048 keys, 6 heads 30.0 / 25.1 / 23.1,
# 8 heads 29.8 / 24.7 / 23.1, 12 heads 30.3 / 32.5 / 40.7, 16 heads 55.8 / 42.7 / 42.7, 24 heads 58.4 / 64.4 / 62.4, 32
# heads 83.8 / 82.9 / 81.7, 48 heads 112.4 / 123.7 / 122.4, 64 heads 164.8 / 163.5 / 162.6; 4,096 keys, 6 heads 56.8 /
# 63.1 / 77.5, 8 heads 102.3 / 80.8 / 77.8, 12 heads 108.1 / 124.3 / 118.1, 16 heads 157.5 / 161.8 / 156.5, 24-64 heads
# the 192-row build by 3-13%. The rule picks the faster in each (ties at 32 / 64 heads x 2,048 keys go to the 192-row
# build). Causal calls: where select takes the short tiles (seq_k <= GLUON_LONG_SEQ_K[True]) from LONG_TILES_CAUSAL_SEQ
# keys, the 192-row build's paired units (a light and a heavy tile each) run where they fill one wave of the SMs to at
# least LONG_TILES_CAUSAL_SHARE: the short tiles took about 0.38 + 1.1 u of that build's wave time, u its units over
# the SMs (fitted in session 45 call 8 over 2,048-4,096 keys), which passes one wave from u = 0.56; past one wave they
# stay (the grid's 4,096-key causal cell, 11 waves, read x0.98 for the 192-row build in session 26). Call 8 (H100,
# graph replay, 9 rounds, us, the API (short tiles) / the 192-row build / cuDNN): 3,072 keys, 10 heads (80 units of 132)
# 53.3 / 46.3 / 49.9, 12 heads 52.8 / 48.0 / 56.6, 16 heads (128) 64.4 / 48.4 / 66.3, 8 heads (64) 39.1 / 45.6 / 43.4;
# 4,096 keys, 8 heads (88) 72.8 / 60.3 / 67.7, 10 heads 78.8 / 61.3 / 76.0, 12 heads (132) 90.0 / 62.2 / 85.5, 6 heads
# (66) 57.8 / 57.8 / 54.6, 5 heads 52.7 / 58.3 / 48.7, 16 heads (176: two waves) 111.2 / 119.3 / 104.3; at 2,048 keys
# the 192-row build at best tied (16 heads 36.7 / 36.3), so not there. Call 9, the API with it against without, shapes
# outside the fit: 3,500 keys, 10 heads 54.8 / 56.5 us, 3,800 keys, 12 heads 57.8 / 76.9 (cuDNN 76.1), 4,096 keys, 8
# heads 60.1 / 72.6 (cuDNN 66.9); 9 / 14 / 32 heads (outside the rule) the same both ways.
LONG_TILES_EDGE = 1.16
# ... and the two-consumer persistent build on 128-row tiles (SM90_LONG_FILL_X2: the tuner's n128s2 candidate at D=64)
# as a third, at any length past GLUON_LONG_SEQ_K, at LONG_TILES_X2_EDGE of the 192-row build's time per row; ties go to
# the 192-row build, then the short tiles. Its waves fall between the others': (1,8,2048) is 88 tiles of 192 rows (one
# wave, a third of it idle), 128 of 128 rows (one full) or 256 of 64 (two CTAs on most SMs, where the short tiles ran at
# LONG_TILES_EDGE_TWO of the 192-row build's time per row: session 45 call 5, 6 / 8 heads x 2,048 keys, 1.26 / 1.24).
# Session 46 call 2 (H100, graph replay, 9 rounds, B = 1, S_q = S_k, us, the 192-row build / the short tiles / the
# 128-row build / cuDNN): 2,048 keys, 8 heads 29.9 / 24.9 / 22.1 / 22.9, 16 heads 55.3 / 42.2 / 42.4 / 41.4, 24 heads
# 57.8 / 63.4 / 64.0 / 61.6; 3,072 keys, 8 heads 42.0 / 46.7 / 58.3 / 57.4, 12 heads 78.7 / 80.7 / 88.6 / 86.0; 4,096
# keys, 6 heads 55.2 / 61.7 / 76.9 / 74.9, 8 heads 103.3 / 81.6 / 80.7 / 78.3, 12 heads 107.9 / 123.9 / 121.9 / 117.6,
# 16 heads 155.0 / 159.2 / 161.4 / 154.8; 8,192 keys, 4 heads 196.8 / 156.8 / 154.0 / 147.3 (past SHORT_SEQ_K: the
# 192-row build was the API's), 8 heads 299.6 / 313.6 / 313.2 / 300.3. The 128-row build's time per row against the
# 192-row build's where both fill their waves alike: 1.15-1.18; against the short tiles' with twice their waves (16 / 40
# heads x 2,048 keys, 8 / 20 heads x 4,096: the model's ties) 0.98-1.03, so ties stay with the short tiles. Call 3, the
# API with it against without (and cuDNN): 6 / 8 heads x 2,048 keys 22.5 / 22.4 us against 25.7 / 25.4 (23.1 / 23.6),
# 4 / 2 heads x 8,192 150.6 / 78.1 against 194.2 / 102.3 (146.7 / 76.7), 2 heads x 16,384 297.3 / 377.6 (287.2), one
# head x 32,768 587.8 / 750.1 (564.4), (2,16,1024) x 8,192 keys 151.1 / 195.7 (147.4); under a first form (1.13, ties
# to the 128-row build) 16 / 40 heads x 2,048 and 20 x 4,096 read x0.99 / 0.97 / 0.98 against the short tiles.
LONG_TILES_X2_EDGE = 1.16
LONG_TILES_EDGE_TWO = 1.25
SM90_LONG_FILL_X2 = {64: _GLUON_N128S2}
LONG_TILES_CAUSAL_SEQ = 3072
LONG_TILES_CAUSAL_SHARE = 0.56


def long_tiles_fill(dtype: torch.dtype, head_dim: int, causal: bool, seq_q: int, seq_k: int, heads: int, sm_count: int):
    """For a non-causal call of `heads` heads x sequences (B x H) of seq_q queries where select would run
    SM90_GLUON_LONG: the 128-row build (SM90_LONG_FILL_X2) or, at seq_k <= SHORT_SEQ_K, the short tiles (SM90_SHORT)
    where its waves take less time than the 192-row build's and the other's (LONG_TILES_X2_EDGE, LONG_TILES_EDGE,
    LONG_TILES_EDGE_TWO);
    SM90_GLUON_LONG for a causal call of at least as many queries as keys, from LONG_TILES_CAUSAL_SEQ keys, where select
    would run the short tiles and its paired units fill one wave to at least LONG_TILES_CAUSAL_SHARE; else None.
    Public: shapes and the GPU."""
    if head_dim not in SM90_GLUON_LONG:
        return None
    if causal:  # measured with S_q = S_k only: not for fewer queries than keys (chunks against a longer past)
        tiles = -(-seq_q // SM90_GLUON_LONG[head_dim][1].block_m)
        units = heads * ((tiles + 1) // 2)  # a light and a heavy tile each
        if LONG_TILES_CAUSAL_SEQ <= seq_k <= seq_q and not use_long_tiles(head_dim, causal, seq_k) \
                and LONG_TILES_CAUSAL_SHARE * sm_count < units <= sm_count:
            return Variant(*SM90_GLUON_LONG[head_dim], dtype, head_dim, causal)
        return None
    if not use_long_tiles(head_dim, causal, seq_k):
        return None
    best = _fill_build(head_dim, seq_q, seq_k, heads, sm_count)
    return None if best is None else Variant(*best, dtype, head_dim, causal)


def _fill_build(head_dim: int, seq_q: int, seq_k: int, heads: int, sm_count: int, long: bool = True):
    """long_tiles_fill's model (non-causal, a head dim of SM90_GLUON_LONG): the build whose waves take least time, None
    for the 192-row build (long=False: not a candidate, as for few_rows_variant's calls). Each build's time in rows of
    the 192-row build's full waves: its waves (the short tiles: the most on one SM) x its rows x its time per row against
    the 192-row build's; ties go to the earlier of the 192-row build, the short tiles and the 128-row build. Public."""
    def waves(build):  # (its tiles on the most loaded SM, its rows a tile)
        rows = build[1].block_m
        return -(-heads * -(-seq_q // rows) // sm_count), rows

    costs = []
    if long:
        w, rows = waves(SM90_GLUON_LONG[head_dim])
        costs.append((w * rows, None))
    if use_short_tiles(head_dim, False, seq_k):
        w, rows = waves(SM90_SHORT[head_dim])
        costs.append((w * rows * (LONG_TILES_EDGE if w > 2 else LONG_TILES_EDGE_TWO), SM90_SHORT[head_dim]))
    if head_dim in SM90_LONG_FILL_X2:
        w, rows = waves(SM90_LONG_FILL_X2[head_dim])
        costs.append((w * rows * LONG_TILES_X2_EDGE, SM90_LONG_FILL_X2[head_dim]))
    return min(costs, key=lambda c: c[0])[1]  # the first of equal costs


def few_programs_variant(dtype: torch.dtype, head_dim: int, causal: bool, seq_k: int, programs: int, sm_count: int,
                         seq_q: int = None):
    """The variant for a grid of `programs` (B * H * ceil(Sq / FEW_PROGRAMS_ROWS)) where the short tiles would
    run: SM90_FEW_PROGRAMS (or with longer keys SM90_FEW_PROGRAMS_MID, SM90_FEW_PROGRAMS_LONG, and where twice the
    grid fits the SMs the cluster builds from cluster_seq keys at D <= 128 (cluster_variant), else
    SM90_FEW_PROGRAMS_SPLIT_KV, and where only the grid fits, at D <= 64, the cluster build two CTAs an SM from
    cluster_2x_seq keys) for at most sm_count programs, SM90_FEW_PROGRAMS_CAUSAL_2X for
    causal grids of up to twice that (below FEW_PROGRAMS_CAUSAL_2X_SEQ keys, at FEW_PROGRAMS_CAUSAL_SHORT's head dims,
    SM90_FEW_PROGRAMS); else None. The split across two programs applies at every length from
    FEW_PROGRAMS_SPLIT_KV_SEQ on (across four where 4 x programs <= sm_count, from FEW_PROGRAMS_SPLIT_KV4_SEQ; across
    8, 16, 32 or 64 where that many times the grid fits half of the SMs, or all at D <= SPLIT_KV_ALL_SMS_MAX_D, from
    FEW_PROGRAMS_SPLIT_KV8_SEQ .. FEW_PROGRAMS_SPLIT_KV64_SEQ), and so does SM90_FEW_PROGRAMS_LONG from
    FEW_PROGRAMS_LONG_SEQ on; the others where the short tiles would run. seq_q (queries per head; None: not known)
    of at most FEW_ROWS_SPLIT_KV_MAX_Q: at FEW_ROWS_PULL_DIMS 64 / 32 parts as clusters of sixteen from
    FEW_ROWS_PULL_SPLIT's keys where they fit FEW_ROWS_X16_CTAS; else the splits run as clusters of sixteen
    (SM90_FEW_PROGRAMS_CL16_TREE, where
    FEW_ROWS_X16_CTAS fit), eight (SM90_FEW_PROGRAMS_CL8_TREE) or four (SM90_FEW_PROGRAMS_CL4_TREE) where their part
    count has such a build and FEW_ROWS_QUAD_CTAS fit, and those of
    FEW_ROWS_SPLIT_KV from their keys too. Shapes and the GPU decide (public)."""
    few_rows = seq_q is not None and seq_q <= FEW_ROWS_SPLIT_KV_MAX_Q
    quad_ctas, x16_ctas = FEW_ROWS_QUAD_CTAS * sm_count // 132, FEW_ROWS_X16_CTAS * sm_count // 132  # on this GPU
    if few_rows and head_dim in FEW_ROWS_PULL_DIMS:  # 32 / 64 parts as clusters of sixteen exchanging (session 53)
        for parts, least_seq_k in FEW_ROWS_PULL_SPLIT.items():
            build = SM90_FEW_PROGRAMS_CL16_TREE.get(parts, {}).get((head_dim, causal))
            if build is not None and seq_k >= least_seq_k and parts * programs <= x16_ctas:
                return Variant(*build, dtype, head_dim, causal)
    for table, least_seq_k, share in _SPLIT_KV_TABLES:  # most programs per tile first
        if table is SM90_FEW_PROGRAMS_SPLIT_KV:  # two programs a tile: as one cluster where it has the head dim
            v = cluster_variant(dtype, head_dim, causal, seq_k, programs, sm_count)
            if v is not None:
                return v
        kernel, config = table.get((head_dim, causal), (None, None))
        if config is None:
            continue
        fits = few_rows and config.split_kv * programs <= quad_ctas
        fits16 = few_rows and config.split_kv * programs <= x16_ctas
        clustered = ((SM90_FEW_PROGRAMS_CL16_TREE.get(config.split_kv, {}).get((head_dim, causal)) if fits16 else None)
                     or SM90_FEW_PROGRAMS_CL8_TREE.get(config.split_kv, {}).get((head_dim, causal))
                     or SM90_FEW_PROGRAMS_CL4_TREE.get(config.split_kv, {}).get((head_dim, causal))) if fits else None
        half = config.split_kv // 2  # (few rows, D <= 64) the split's clusters do not fit, half as many parts' do
        if few_rows and not fits and least_seq_k <= seq_k <= FEW_ROWS_HALF_KEYS * half and (head_dim, causal) in \
                SM90_FEW_PROGRAMS_CL16_TREE.get(half, {}) and half * programs <= x16_ctas:
            continue
        # the earlier part counts only where one cluster holds every part (no global level); one cluster of sixteen
        # runs wherever its clusters fit, past its share of the SMs
        one = clustered is not None and cluster_parts(clustered[1].cluster) >= config.split_kv
        early = FEW_ROWS_SPLIT_KV.get(config.split_kv) if one else None
        if early is not None and head_dim in early[2] and seq_k >= early[0] \
                and config.split_kv * programs <= sm_count // early[1]:
            return Variant(*clustered, dtype, head_dim, causal)
        bound = x16_ctas if one and clustered[1].cluster == 16 else sm_count // _split_kv_share(head_dim, share)
        if config.split_kv * programs <= bound and seq_k >= least_seq_k:
            # each sixteen, eight or four parts one cluster (calls of few rows, where they fit), else pairs of parts as
            # clusters (CL_TREE) where that part count has a cluster build at this head dim
            kernel, config = clustered or SM90_FEW_PROGRAMS_CL_TREE.get(config.split_kv, {}).get((head_dim, causal),
                                                                                                (kernel, config))
            return Variant(kernel, config, dtype, head_dim, causal)
    if programs <= sm_count and (head_dim, causal) in SM90_FEW_PROGRAMS_LONG and seq_k >= FEW_PROGRAMS_LONG_SEQ[causal]:
        return Variant(*SM90_FEW_PROGRAMS_LONG[(head_dim, causal)], dtype, head_dim, causal)
    if (head_dim, causal) not in SM90_FEW_PROGRAMS or not use_short_tiles(head_dim, causal, seq_k):
        return None
    if programs <= sm_count:
        if (head_dim, causal) in SM90_FEW_PROGRAMS_MID and seq_k >= FEW_PROGRAMS_MID_SEQ:
            kernel, config = SM90_FEW_PROGRAMS_MID[(head_dim, causal)]
        else:
            kernel, config = SM90_FEW_PROGRAMS[(head_dim, causal)]
    elif causal and programs <= 2 * sm_count and head_dim in SM90_FEW_PROGRAMS_CAUSAL_2X \
            and seq_k >= FEW_PROGRAMS_CAUSAL_2X_SEQ:
        kernel, config = SM90_FEW_PROGRAMS_CAUSAL_2X[head_dim]
    elif causal and programs <= 2 * sm_count and head_dim in FEW_PROGRAMS_CAUSAL_SHORT:
        kernel, config = SM90_FEW_PROGRAMS[(head_dim, causal)]
    else:
        return None
    return Variant(kernel, config, dtype, head_dim, causal)
