#!/bin/bash
# Session 55 call 3: the rule's gaps (decode_pairs55.py: D=64 with 4-7 pairs, D=128 with 5-7, the forward kernels
# against the swap kernel at 16 / 32 parts and cuDNN), then evidence on the default path (SWAP_DECODE on, the plan's
# kept pair): memcheck / synccheck over API calls (the later ones through sm90_decode.Kept), counters over eight
# rounds and dudect at two shapes it runs.
#   bash scripts/session55_run3.sh   (carry [".whl"]; writes under $OUT; about 5 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode pairs ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/decode_pairs55.py --rounds 7 2>&1 | tail -16
sanitize_decode 90 5 ", default switch" --seed 0 --cases "1,32,8,16385,128;2,32,8,4097,64;1,28,4,20000,128"
s=1,32,1,128,32768,8
echo "== counters --rounds 8 $s ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 -m dhpfa counters --shape $s --rounds 8 --out "$OUT/counters_${s//,/_}" 2>&1 | tail -16
for s in 1,32,1,128,32768,8 2,32,1,64,4096,8; do
  echo "== leak $s ($(( $(date +%s) - t0 )) s)"
  timeout 45 python3 -m dhpfa leak --shape $s --samples 2000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
done
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
