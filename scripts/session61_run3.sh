#!/bin/bash
# Session 61 call 3: decode_many61.py at pair counts a little past one or two waves of SMs (136-272 pairs), 2,048-32,768
# keys, the shipped merged build at 1-8 parts against the API and cuDNN (the data for a rule).
#   bash scripts/session61_run3.sh   (carry [".whl"]; writes under $OUT; about 3 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_many61 ($(( $(date +%s) - t0 )) s)"
timeout 500 python3 scripts/decode_many61.py --rounds 7 --no-two --parts 2,4,8 --keys 2048,4096,8192,16384,32768 \
  --shapes "34:32:4;35:32:4;18:32:8;20:32:8;68:32:4" 2>&1 | grep -v Warning
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
