"""One launch path for every shipped variant, Triton or Gluon: the API, the auditor and the GPU tests all
build a variant's arguments here, so the binary audited offline is the one launched. Kernel modules are
imported on first use (TRITON_INTERPRET is read when a kernel is defined; Gluon is not needed on CPU)."""


def kernel_fn(kernel: str):
    """The @triton.jit / @gluon.jit function named `kernel`."""
    from .variants import GLUON_KERNELS
    if kernel in GLUON_KERNELS:
        from . import sm90_fwd
        return getattr(sm90_fwd, kernel)
    from . import triton_fwd
    return triton_fwd.KERNELS[kernel]


def launch_args(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset):
    """(grid, args, kwargs) for `variant` on (B, S, H, D) views."""
    from .variants import GLUON_KERNELS
    c = variant.config
    if variant.kernel in GLUON_KERNELS:
        from . import sm90_fwd
        # the launcher derives the warps (one warpgroup per 64 rows of each consumer): the table must agree
        assert c.num_warps == c.block_m // c.split // 16, f"{variant.name}: num_warps disagrees with the tiles"
        return sm90_fwd.launch_args(q, k, v, out, lse, softmax_scale, causal, causal_offset, block_m=c.block_m,
                                    block_n=c.block_n, stages=c.num_stages, warp_specialized=True, split=c.split,
                                    pingpong=c.pingpong, persistent=c.persistent)
    from . import triton_fwd
    return triton_fwd.launch_args(variant.kernel, q, k, v, out, lse, softmax_scale, causal, causal_offset, c)


def launch(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset):
    grid, args, kwargs = launch_args(variant, q, k, v, out, lse, softmax_scale, causal, causal_offset)
    return kernel_fn(variant.kernel)[grid](*args, **kwargs)
