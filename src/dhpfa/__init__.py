"""dhpfa: attention for Hopper GPUs whose running time does not depend on the data."""
from .api import flash_attn_func, scaled_dot_product_attention

__all__ = ["flash_attn_func", "scaled_dot_product_attention"]
__version__ = "0.1.0"
