"""The one list of shipped kernel variants.

The API dispatches only to variants listed here; the auditor compiles and checks every one of them; the
GPU tests and benchmarks iterate over the same list. A variant fixes everything that changes the binary:
dtype, head dim, causal flag and tile configuration (the integer shape arguments are not specialised).
It also declares which kernel arguments are secret: the auditor reads this instead of guessing.
"""
from dataclasses import dataclass, field

import torch

HEAD_DIMS = (32, 64, 96, 128, 192, 256)
DTYPES = (torch.float16, torch.bfloat16)


@dataclass(frozen=True)
class TileConfig:
    block_m: int
    block_n: int
    num_warps: int
    num_stages: int

    def label(self) -> str:
        return f"m{self.block_m}n{self.block_n}w{self.num_warps}s{self.num_stages}"


# Hopper defaults per head dim (tuned on the device; see docs/perf-log.md for the measurements).
SM90_CONFIGS = {
    32: TileConfig(128, 128, 8, 3),
    64: TileConfig(128, 128, 8, 3),
    96: TileConfig(128, 64, 8, 3),
    128: TileConfig(128, 128, 8, 3),
    192: TileConfig(128, 64, 8, 2),
    256: TileConfig(128, 64, 8, 2),
}
# Small tiles for the CPU interpreter: several blocks per row even at tiny sequence lengths.
INTERPRETER_CONFIG = TileConfig(16, 16, 4, 1)


@dataclass(frozen=True)
class Variant:
    """One compiled kernel that the API can launch."""
    kernel: str                  # name of the @triton.jit function in dhpfa.kernels.triton_fwd
    dtype: torch.dtype
    head_dim: int
    causal: bool
    config: TileConfig
    # Data behind these pointer arguments is secret. Everything else (scalars, strides, the pointers
    # themselves) is public. Loads the auditor may treat as public would be listed in `public_loads`.
    secret_args: tuple = ("Q", "K", "V", "O", "LSE")
    public_loads: tuple = field(default=())

    @property
    def name(self) -> str:
        dt = {torch.float16: "fp16", torch.bfloat16: "bf16", torch.float32: "fp32"}[self.dtype]
        return f"{self.kernel}-{dt}-d{self.head_dim}-{'causal' if self.causal else 'full'}-{self.config.label()}"


def shipped_variants():
    """Every variant the GPU dispatcher can choose."""
    return [Variant("attn_fwd", dt, d, c, SM90_CONFIGS[d])
            for dt in DTYPES for d in HEAD_DIMS for c in (False, True)]


def select(dtype: torch.dtype, head_dim: int, causal: bool, interpreter: bool) -> Variant:
    config = INTERPRETER_CONFIG if interpreter else SM90_CONFIGS[head_dim]
    return Variant("attn_fwd", dtype, head_dim, causal, config)
