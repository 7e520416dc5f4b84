#!/bin/bash
# Session 33 run 6: compute-sanitizer memcheck and synccheck over the sanitizer child (its paged Hopper case included),
# on the final source, with kernels compiled first (scripts/precompile.py) so the limits hold the sanitized runs.
#   bash scripts/session33_run6.sh   (device tool; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
SAN_LIMIT=${SAN_LIMIT:-200} SAN_TAIL=3 bash scripts/sanitize_child.sh
echo "elapsed $(( $(date +%s) - t0 )) s"
