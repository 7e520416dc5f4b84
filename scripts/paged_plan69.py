"""Session 69 call 11 (prepared, not run: no device time was left): the KV-cache plan tests with the paged forms on
(variants.SWAP_DECODE_KV_PAGED and SWAP_DECODE_KV_PAGED_PARTS, shipped off), after the paged forms' Kept took the block table (their calls now
keep a plan): pytest in this process (the flag set here; no xdist workers), the selection given as argv[1].

    PYTHONPATH=src:tests python3 scripts/paged_plan69.py "-k EXPR"
"""
import sys

import pytest

from dhpfa.kernels import variants

variants.SWAP_DECODE_KV_PAGED = variants.SWAP_DECODE_KV_PAGED_PARTS = True
sys.exit(pytest.main(["-q", "-m", "gpu", "tests/test_varlen.py", "-p", "no:cacheprovider", "-rf", *sys.argv[1:]]))
