#!/bin/bash
# Session 7, device run 3: (a) the Gluon kernel with one consumer warpgroup on 64-row tiles at the D=64 /
# D=128 grid cells S <= 4K (small_tiles.py --preset x1, CUDA-graph replay); (b) the API's new few-program
# choice at (1,8,512,128 / 256) beside the candidates (--preset tiny_wide); (c) SKIP_MASKED on against off,
# a second time (D=128 S=512 causal in graph replay, D=256 16K and D=64 16K causal eager).
#   bash scripts/session7_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/x1" "$OUT/tiny" "$OUT/graph" "$OUT/eager"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
echo "== x1"
timeout 260 python3 scripts/small_tiles.py --out $OUT/x1 --preset x1 --rounds 9 \
  --shapes "32,32,512,64;16,32,1024,64;4,32,4096,64;32,16,512,128;16,16,1024,128" 2>&1 | tail -80
echo "== tiny_wide"
timeout 100 python3 scripts/small_tiles.py --out $OUT/tiny --preset tiny_wide --rounds 9 \
  --shapes "1,8,512,128;1,8,512,256" 2>&1 | grep -E "==|dhpfa|sdpa|m64n64w4s3 |m64n64w4s2 |m64n32" | tail -30
echo "== SKIP on/off"
timeout 90 python3 scripts/ab_sm90.py --out $OUT/graph --graph --reference tree/n64s3_noskip --no-correctness \
  --configs n64s3,n64s3_noskip --cases 128:512 2>&1 | grep causal
timeout 120 python3 scripts/ab_sm90.py --out $OUT/eager --reference tree/n64s2_noskip --no-correctness \
  --configs n64s2,n64s2_noskip,m192n128s2_x3_nopp,m192n128s2_x3_nopp_noskip --cases 256:16384,64:16384 2>&1 | grep causal
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
