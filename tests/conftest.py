"""Test set-up: on a machine with no GPU the kernels run in Triton's CPU interpreter.

TRITON_INTERPRET must be set before triton.jit decorates the kernels, that is before dhpfa is imported.
"""
import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402

INTERPRET = os.environ.get("TRITON_INTERPRET") == "1"


def _mark_items(items):
    skip_gpu = pytest.mark.skip(reason="needs a CUDA GPU")
    skip_interp = pytest.mark.skip(reason="runs in the Triton CPU interpreter (TRITON_INTERPRET=1)")
    for item in items:
        if "gpu" in item.keywords and not torch.cuda.is_available():
            item.add_marker(skip_gpu)
        if "interpreter" in item.keywords and not INTERPRET:
            item.add_marker(skip_interp)


def _full_audit_item(items):
    from tests.test_audit import FULL_AUDIT
    return [item for item in items if item.name == FULL_AUDIT]


# tests that disassemble many shipped binaries (compiled, where the cache lacks them): after the full audit, which has
# compiled them all by then (before it, they compiled the same binaries again beside the background audit)
AFTER_FULL_AUDIT = ("test_named_barrier_ids_are_the_kernels_own", "test_three_consumer_warpgroups_compile_clean",
                    "test_p_waits_for_its_gemm_in_packed_words",  # (these three share one module fixture)
                    "test_every_shape_launches_the_audited_binary", "test_every_varlen_shape_launches_the_audited_binary",
                    "test_batched_disassembly_equals_cuobjdump",
                    "test_triton_kernels_keep_q_registers_out_of_their_key_loops",
                    "test_tma_tiles_skip_the_masked_loop_set_up_when_it_has_no_blocks",
                    "test_cluster_build_compiles_to_a_bulk_copy_meeting_without_spills_or_global_atomics")


def pytest_collection_modifyitems(session, config, items):
    _mark_items(items)
    # the full audit last but for AFTER_FULL_AUDIT: it waits for the background audit that pytest_collection_finish
    # starts
    last = _full_audit_item(items)
    if last:
        after = [item for item in items if item.originalname in AFTER_FULL_AUDIT]
        items[:] = [item for item in items if item not in last and item not in after] + last + after


def pytest_collection_finish(session):
    """Start the full audit (tests/test_audit.py) in the background as soon as it is among the tests to run, so that
    its compile and audit processes run beside the rest of the suite."""
    if _full_audit_item(session.items) and not session.config.option.collectonly:
        import tempfile
        from tests import test_audit
        test_audit.start_full_audit(tempfile.mkdtemp(prefix="dhpfa-full-audit-"))


def pytest_unconfigure(config):
    import sys
    mod = sys.modules.get("tests.test_audit")
    if mod is not None:
        mod.stop_full_audit()
