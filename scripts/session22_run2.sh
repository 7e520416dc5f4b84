#!/bin/bash
# Session 22 run 2: the GPU tests after the API cleanups (_keep_plan, _on_device, one kvcache tail for paged and
# unpaged caches, the launcher's misalignment error): every varlen / kvcache / paged GPU test, the dense launcher
# tests, then the torch.compile tests (run 1 cut them off at its 200 s bound).
#   bash scripts/session22_run2.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
t0=$(date +%s)
timeout 200 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 240 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -4
echo "varlen tests $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "cached_launch or repeated or launched_binary or flash_attn_order" 2>&1 | tail -4
echo "dense launcher tests $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "torch_compile" --durations=3 2>&1 | tail -8
echo "total $(( $(date +%s) - t0 )) s"
