#!/bin/bash
# Session 55 call 6: evidence on the rule's new cell (D=64 with 4 pairs in 32 parts: the combine merges two groups of
# sixteen parts): memcheck / synccheck over API calls, counters over three rounds and dudect there.
#   bash scripts/session55_run6.sh   (carry [".whl"]; writes under $OUT; about 2 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
sanitize_decode 90 4 " (1,32,4,1,S,64)" --seed 1 --dtype fp16 --cases "1,32,4,16385,64;1,28,4,40000,64"
s=1,32,1,64,32768,4
echo "== counters --rounds 3 $s ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 -m dhpfa counters --shape $s --rounds 3 --out "$OUT/counters_${s//,/_}" 2>&1 | tail -14
echo "== leak $s ($(( $(date +%s) - t0 )) s)"
timeout 45 python3 -m dhpfa leak --shape $s --samples 2000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
