#!/bin/bash
# Session 47 call 9: issue 5's long-context row (dhpfa bench --parts long: B = 1, S from 16K to 128K) on the final rules.
#   bash scripts/session47_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 -m dhpfa bench --dtypes bf16 --parts long --out "$OUT/long" 2>&1 | grep -v "^$" | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
