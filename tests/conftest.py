"""Test set-up: on a machine with no GPU the kernels run in Triton's CPU interpreter.

TRITON_INTERPRET must be set before triton.jit decorates the kernels, that is before dhpfa is imported.
"""
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"


def pytest_collection_modifyitems(config, items):
    skip_gpu = pytest.mark.skip(reason="needs a CUDA GPU")
    skip_interp = pytest.mark.skip(reason="runs in the Triton CPU interpreter (TRITON_INTERPRET=1)")
    for item in items:
        if "gpu" in item.keywords and not torch.cuda.is_available():
            item.add_marker(skip_gpu)
        if "interpreter" in item.keywords and not INTERPRET:
            item.add_marker(skip_interp)
