#!/bin/bash
# Session 39 call 7: issue 5's long-context goal (B=1, S = 16K .. 128K, D=128, beside the SDPA backends; dhpfa bench's
# long part, sustained clocks).   bash scripts/session39_run7.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 240 python3 -m dhpfa bench --dtypes bf16 --parts long --out "$OUT/long" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
