#!/bin/bash
# Session 7, device runs 5-6 on the final kernels and dispatch (SKIP_MASKED on the causal Gluon builds with
# narrow key blocks; few-program grids at D=128 / 256 on 64-row tiles).
#   PART=grid:  the bf16 grid beside the SDPA backends (S <= 1K cells also in graph replay), then host time
#               per call;
#   PART=proof: compute-sanitizer memcheck and synccheck over the sanitizer child (now reaching the
#               few-program variants and the SKIP builds), then the few-program shapes in graph replay.
#   Writes under $OUT.
export PYTHONPATH=$PWD/src:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
if [ "${PART:-grid}" = grid ]; then
  timeout ${BENCH_LIMIT:-440} python3 -m dhpfa bench --dtypes bf16 --out $OUT/bench 2>&1 | tail -48
  timeout 60 python3 scripts/host_overhead.py --out $OUT 2>&1 | tail -9
else
  SAN_LIMIT=170 SAN_TAIL=3 bash scripts/sanitize_child.sh
  timeout 120 python3 scripts/small_tiles.py --out $OUT/tiny --preset tiny_wide --rounds 9 \
    --shapes "1,8,512,64;1,8,512,128;1,8,512,256" 2>&1 | grep -E "==|dhpfa|sdpa" | tail -30
fi
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
