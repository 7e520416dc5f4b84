#!/bin/bash
# Session 19, device run 7: flash-attn's argument order and packed layouts on the GPU (the API change; the kernels are
# those of 2754212), with the API's plan, replay and torch.compile tests.
#   bash scripts/session19_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/precompile.py --match sm90_ws --match bf16 --match d128 --jobs 16 2>&1 | tail -1
timeout 300 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "flash_attn_order or repeated_calls_of_one_signature or under_torch_compile or bitwise" 2>&1 | tail -3
timeout 90 python3 scripts/host_overhead.py --out "$OUT" 2>&1 | tail -8; head -12 "$OUT/host_overhead.txt"
