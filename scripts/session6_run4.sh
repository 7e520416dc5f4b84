#!/bin/bash
# Session 6, device run 4: small shapes in CUDA-graph replay over Triton tile configurations
# (scripts/small_tiles.py); D=64 three consumers without turns, 2 or 3 stages; compute-sanitizer synccheck
# and racecheck over the sanitizer child (now reaching the D=64 three-consumer variant).
#   bash scripts/session6_run4.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
echo "== small shapes"
timeout ${S_LIMIT:-200} python3 scripts/small_tiles.py --out $OUT 2>&1 | tail -60
echo "== A/B D=64 stages"
timeout ${AB_LIMIT:-150} python3 scripts/ab_sm90.py --out $OUT --reference dhpfa --no-correctness \
  --configs m192n128s2_x3_nopp,m192n128s3_x3_nopp --cases 64:8192,64:16384 2>&1 | tail -5
for tool in synccheck racecheck; do
  echo "== $tool"
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd_sm90 python3 -m dhpfa.measure.sanitize child 2>&1 | tail -4
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
