#!/bin/bash
# Session 56 call 5: call 4's dudect samples (isolated calls: host and GPU) read 236 us at (1,32,1,64,32768,4) on the
# merged kernel against 80-84 in session 55 (combine) and 86-105 at the other shapes: eager host time and isolated
# wall time of the merged / combine / forward paths and cuDNN (decode_host_time.py --isolated), and that leak again.
#   bash scripts/session56_run5.sh   (carry [".whl"]; writes under $OUT; about 1.5 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 120 python3 scripts/decode_host_time.py --rounds 5 --isolated \
  --cases "1,32,4,32768,64;2,32,8,4096,64;1,32,8,32768,128;1,16,2,65536,128" 2>&1 | tail -8
timeout 60 python3 -m dhpfa leak --shape 1,32,1,64,32768,4 --samples 400 --out "$OUT/leak" 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
