#!/bin/bash
# Session 7, device run 1: (a) the experimental SKIP_MASKED build (scripts/session7_skip.sh: its GPU tests
# under a timeout, A/B at D=128 S <= 1K causal in graph replay, D=256 and D=64 causal); (b) the experimental
# PRODUCER_FIRST build at D=64 (producer in the default partition, three consumers at 160 registers each),
# correctness and A/B against the shipped three-consumer build; (c) few-program grids at D=128 / 256
# (small_tiles.py --preset tiny_wide).   bash scripts/session7_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/graph" "$OUT/eager" "$OUT/tiny"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
echo "== SKIP tests"
timeout 240 python3 -m pytest tests/test_sm90_fwd.py -m gpu -q -p no:cacheprovider -x -k skip \
  2>&1 | grep -E "passed|failed|Error|error|assert" | tail -8
echo "== SKIP A/B, graph replay, D=128 S<=1K"
timeout 150 python3 scripts/ab_sm90.py --out $OUT/graph --graph --reference dhpfa --configs n64s3,n64s3_skip \
  --cases 128:512,128:1024 2>&1 | tail -6
echo "== SKIP and PRODUCER_FIRST A/B, eager"
timeout 330 python3 scripts/ab_sm90.py --out $OUT/eager --reference dhpfa \
  --configs n64s2,n64s2_skip,m192n128s2_x3_nopp,m192n128s2_x3_nopp_skip,m192n128s2_x3_nopp_pf,m192n128s3_x3_nopp_pf \
  --cases 256:2048,256:16384,64:8192,64:16384 2>&1 | grep -v "^correctness .*done" | tail -12
echo "== few programs, D=128 / 256"
timeout 150 python3 scripts/small_tiles.py --out $OUT/tiny --preset tiny_wide --rounds 11 \
  --shapes "1,8,512,128;1,8,512,256" 2>&1 | tail -40
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
