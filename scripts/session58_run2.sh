#!/bin/bash
# Session 58 call 2: the merge spread over the pair's first SWAP_DECODE_SPLIT programs (attn_decode_sm90_split,
# cooperative): decode_split58.py (float64 checks, eager and graph-replay stress, timings against the one-program merge
# and cuDNN), its stamps (decode_stamps57.py --split), the decode GPU tests, memcheck / synccheck / racecheck over API
# calls, counters over 6 rounds and dudect at two pairs D=64 (64 parts) and 8 pairs D=128 (16 parts).
#   bash scripts/session58_run2.sh   (carry [".whl"]; writes under $OUT; about 8 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_split58 ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/decode_split58.py --rounds 9 --stress 200 2>&1 | grep -v "^$" | tail -30
echo "== decode_stamps57 --split ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stamps57.py --launches 30 --out "$OUT" --split 2>&1 | grep -v "^$" | tail -6
decode_tests
sanitize_decode 50 6 ", shipped builds" --seed 6 \
  --cases "1,16,2,65541,64;2,32,8,4097,64;1,28,4,40000,64;1,32,8,16385,128;1,16,2,65537,128"
racecheck_decode 60 6 7 "1,16,2,65541,64;1,16,2,65537,128"
counters_and_leak 1,16,1,64,65536,2:6 1,32,1,128,16384,8:6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
