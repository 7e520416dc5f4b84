#!/bin/bash
# Session 46 call 3: the two dispatch rules of this session (variants.SPLIT_KV_ALL_SMS_MAX_D: split-KV grids of 8+
# parts fill every SM at D <= 64; variants.SM90_LONG_FILL_X2: the 128-row two-consumer build in long_tiles_fill's wave
# model) through the API against the API without them (rule_check.py: float64 checks, graph replay beside cuDNN), the
# GPU tests of the choices they touch, and counters / dudect at a packed decode shape the first rule moves to 16 parts.
#   bash scripts/session46_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 150 python3 scripts/precompile.py --jobs 16 --match d64 2>&1 | tail -1
timeout 100 python3 scripts/precompile.py --jobs 16 --match d32 2>&1 | tail -1
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/rule_check.py --out "$OUT" --rounds 9
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -m gpu -q -n 14 --dist loadgroup -p no:cacheprovider tests/test_gpu.py \
  -k "few_program or one_query or few_heads or top_left" 2>&1 | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 120 python3 -m dhpfa counters --out "$OUT/counters" --shape 1,32,1,64,32768,8 2>&1 | tail -25
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 -m dhpfa leak --out "$OUT/leak" --shape 1,32,1,64,32768,8 --samples 1000 2>&1 | tail -12
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
