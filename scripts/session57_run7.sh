#!/bin/bash
# Session 57 call 7: the shipped merged builds with the merge from shared memory (variants.SWAP_DECODE_MERGE_ASYNC):
# the decode GPU tests, rule_check --set s57 (the API against the session's start), memcheck / synccheck / racecheck
# over API calls, counters over 6 rounds and dudect at two pairs D=64 (64 parts) and 8 pairs D=128.
#   bash scripts/session57_run7.sh   (carry [".whl"]; writes under $OUT; about 6 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode tests ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_sm90_decode.py tests/test_gpu.py -k "decode or repeated_calls" \
  -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
grep -E "^FAILED" "$OUT/decode_tests.log" | head -20
echo "== rule_check s57 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --out "$OUT/rc" --set s57 --rounds 9 2>&1 | grep -v "^$" | tail -18
sanitize_decode 60 8 ", shipped builds" --seed 4 \
  --cases "1,16,2,65541,64;2,32,8,4097,64;1,28,4,40000,64;1,32,8,16385,128;1,16,2,65537,128"
echo "== racecheck, API decode ($(( $(date +%s) - t0 )) s)"
timeout 120 compute-sanitizer --tool racecheck --print-limit 3 python3 scripts/decode_sanitize.py --seed 5 \
  --cases "1,16,2,65541,64;1,16,2,65537,128" 2>&1 | grep -v "Host Frame" | grep -v "^=========\s*$" | tail -6
for sr in 1,16,1,64,65536,2:6 1,32,1,128,32768,8:6; do
  s=${sr%:*}; r=${sr#*:}
  echo "== counters --rounds $r $s ($(( $(date +%s) - t0 )) s)"
  timeout 120 python3 -m dhpfa counters --shape $s --rounds $r --out "$OUT/counters_${s//,/_}" 2>&1 | tail -10
  rm -f "$OUT"/counters_${s//,/_}/*.csv
  echo "== leak $s ($(( $(date +%s) - t0 )) s)"
  timeout 40 python3 -m dhpfa leak --shape $s --samples 2000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
