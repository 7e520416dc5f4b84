#!/bin/bash
# Session 33 run 8: the long-key rule where call 4-8 did not measure it: D=96 / 192 (long caches and caches holding just
# the chunk), soft-capped and windowed chunks at D=128 / 256 against long contiguous caches (scripts/paged_rule_sweep.py).
#   bash scripts/session33_run8.sh   (device tool; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
S="python3 scripts/paged_rule_sweep.py --rounds ${ROUNDS:-7} --out $OUT --chunks 64,128,256,512"
timeout 200 $S --dims 96,192 2>&1 | tail -17
timeout 120 $S --dims 96,192 --fresh 2>&1 | tail -17
timeout 120 $S --dims 128,256 --softcap 30 2>&1 | tail -17
timeout 120 $S --dims 128,256 --window 1023 2>&1 | tail -17
echo "elapsed $(( $(date +%s) - t0 )) s"
