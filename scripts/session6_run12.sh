#!/bin/bash
# Session 6, device run 12: the launch cache passes TMA descriptors encoded once per base address
# (kernels/dispatch.py). GPU tests through the cached path (cached == JIT launch with reused and rewritten
# tensors, determinism, the bf16 protocol grid, torch.compile), then host time per call.
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
timeout ${PYTEST_LIMIT:-300} python3 -m pytest tests/test_gpu.py tests/test_envelope.py -m gpu -q -p no:cacheprovider \
  -k "cached or deterministic or (protocol_grid and bf16) or compile or envelope" 2>&1 | tee $OUT/pytest.txt \
  | grep -E "passed|failed|Error|error|assert" | tail -12
timeout 90 python3 scripts/host_overhead.py --out $OUT 2>&1 | tail -10
