"""The environment variables dhpfa reads, by name (each reader reads its own; this module loads nothing, so
the API can name them before the kernels, which read TRITON_INTERPRET when they are defined, exist)."""
INTERPRET_ENV = "TRITON_INTERPRET"  # "1": the kernels run in Triton's CPU interpreter (tests)
CACHE_ENV = "DHPFA_CACHE_DIR"       # the tuner's cache directory (default ~/.cache/dhpfa)
AUTOTUNE_ENV = "DHPFA_AUTOTUNE"     # "1": tune a class on its first call
