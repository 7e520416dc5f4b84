#!/bin/bash
# Session 36 call 6: the combine's new tiles: A/B against the part-by-part form (combine_ab.py), ncu durations of the
# attention and combine launches (as call 5), and the whole varlen GPU test file.
#   bash scripts/session36_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 150 python3 scripts/combine_ab.py --rounds 7 --out "$OUT" 2>&1 | tail -20
for cfg in "128 1 32768" "64 1 32768" "256 1 32768" "128 8 4096" "128 16 8192" "64 12 8192"; do
  set -- $cfg
  echo "== D=$1 B=$2 N=$3"
  timeout 60 ncu --clock-control none --profile-from-start off --section SpeedOfLight --section LaunchStats \
    python3 scripts/decode_ncu.py --d $1 --b $2 --n $3 2>&1 | grep -E "^  [a-z_]+ \(|Duration|Registers Per" \
    | paste - - - | sed 's/  */ /g'
done
echo "== tests"
timeout 330 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py -p no:cacheprovider -rf > "$OUT/tests.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests.log" | tail -1
grep "^FAILED" "$OUT/tests.log" | head
echo "elapsed $(( $(date +%s) - t0 )) s"
