#!/bin/bash
# Session 36 call 5: how long the split decode's combine launch takes beside its attention launch (ncu, one step each).
#   bash scripts/session36_run5.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for cfg in "128 1 32768" "64 1 32768" "256 1 32768" "128 8 4096" "128 16 8192" "64 12 8192"; do
  set -- $cfg
  echo "== D=$1 B=$2 N=$3"
  timeout 60 ncu --clock-control none --profile-from-start off --section SpeedOfLight --section LaunchStats \
    python3 scripts/decode_ncu.py --d $1 --b $2 --n $3 2>&1 | grep -E "^  [a-z_]+ \(|Duration|DRAM Throughput|Registers Per" 
done
echo "elapsed $(( $(date +%s) - t0 )) s"
