#!/bin/bash
# Session 15, device run 8: packed, split decode under torch.compile (new test, D=96 / 128 / 256) and the older
# torch.compile test.
#   bash scripts/session15_run8.sh
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 400 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider -k "under_torch_compile" 2>&1 | tail -15
