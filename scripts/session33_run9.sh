#!/bin/bash
# Session 33 run 9: after the widened long-key rule (D=96 / 192, soft-caps), the varlen GPU tests and test_gpu's
# soft-cap, window and kvcache tests (pytest-xdist, 6 workers: the H100's 80 GB).
#   bash scripts/session33_run9.sh   (device tool: carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 420 python3 -m pytest -q -m gpu -n 6 -p no:cacheprovider tests/test_varlen.py tests/test_gpu.py \
  -k "varlen or softcap or window or kvcache or paged or local" -rf 2>&1 | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
