#!/bin/bash
# Session 58 call 6: _merge_slice with its warps along the query heads (WARP_ROWS: no cross-warp reduction) against
# calls 2-4's form (decode_split_ab58 --rows: float64 checks of both, graph-replay timings), decode_split58's checks and
# stress, the stamps, the decode GPU tests, memcheck / synccheck / racecheck over API calls, counters and dudect at two
# pairs D=64 (64 parts) and 4 pairs D=128 (16 parts).
#   bash scripts/session58_run6.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode_split_ab58 --rows ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_split_ab58.py --rounds 11 --rows 2>&1 | grep -v "^$" | tail -10
echo "== decode_split58 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_split58.py --rounds 9 --stress 200 2>&1 | grep -v "^$" | grep -v "^check" | tail -16
echo "== decode_stamps57 --split ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 scripts/decode_stamps57.py --launches 30 --out "$OUT" --split 2>&1 | grep -v "^$" | tail -6
decode_tests
sanitize_decode 50 6 ", shipped builds" --seed 10 \
  --cases "1,16,2,65541,64;1,28,4,40000,64;1,32,8,16385,128;1,16,2,65537,128"
racecheck_decode 60 5 11 "1,16,2,65541,64;1,16,2,65537,128"
counters_and_leak 1,16,1,64,65536,2:6 1,32,1,128,32768,4:6
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
