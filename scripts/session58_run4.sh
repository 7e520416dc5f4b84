#!/bin/bash
# Session 58 call 4: variants.SWAP_DECODE_SPLIT at 8 slices (call 3: 8 at least level with 16, ahead at D=128):
# decode_split_ab58 --final (the shipped choice, 16 slices, the one-program merge, cuDNN; 8-part cells too),
# decode_split58 (float64 checks, eager and graph-replay stress), the stamps, the decode GPU tests, memcheck /
# synccheck / racecheck over API calls, counters over 6 rounds and dudect at two pairs D=64 (64 parts) and 16 pairs
# D=128 (8 parts).
#   bash scripts/session58_run4.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_split_ab58 --final ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_split_ab58.py --rounds 11 --final 2>&1 | grep -v "^$" | tail -12
echo "== decode_split58 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_split58.py --rounds 9 --stress 200 2>&1 | grep -v "^$" | tail -30
echo "== decode_stamps57 --split ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stamps57.py --launches 30 --out "$OUT" --split 2>&1 | grep -v "^$" | tail -6
decode_tests
sanitize_decode 50 7 ", shipped builds" --seed 8 \
  --cases "1,16,2,65541,64;2,32,8,4097,64;1,28,4,40000,64;1,32,8,16385,128;1,16,2,65537,128;2,32,8,16385,128"
racecheck_decode 60 6 9 "1,16,2,65541,64;1,16,2,65537,128;2,32,8,16385,128"
counters_and_leak 1,16,1,64,65536,2:6 2,32,1,128,16384,8:6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
