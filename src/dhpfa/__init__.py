"""dhpfa: attention for Hopper GPUs whose running time does not depend on the data."""
from .api import (flash_attn_func, flash_attn_kvpacked_func, flash_attn_qkvpacked_func, flash_attn_varlen_func,
                  flash_attn_varlen_kvpacked_func, flash_attn_varlen_qkvpacked_func, flash_attn_with_kvcache,
                  scaled_dot_product_attention)

__all__ = ["flash_attn_func", "flash_attn_kvpacked_func", "flash_attn_qkvpacked_func", "flash_attn_varlen_func",
           "flash_attn_varlen_kvpacked_func", "flash_attn_varlen_qkvpacked_func", "flash_attn_with_kvcache",
           "scaled_dot_product_attention", "TimingEnvelope"]


def __getattr__(name):
    # Imported on first use: the envelope defines Triton kernels, and TRITON_INTERPRET is read then.
    if name in ("TimingEnvelope", "DeadlineMissed", "DeadlineMissedWarning"):
        from . import envelope
        return getattr(envelope, name)
    raise AttributeError(f"module 'dhpfa' has no attribute {name!r}")
__version__ = "0.1.0"
