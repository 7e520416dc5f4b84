#!/bin/bash
# Session 6, device run 7: three consumer warpgroups (D=64) releasing ring slots with every thread
# (cp.async.mbarrier.arrive.noinc; two-consumer builds unchanged) against HEAD's one-thread release
# (out/ab/sm90_base.py): correctness (odd shapes, both dtypes), synccheck, then the A/B.
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
echo "== synccheck"
timeout 100 compute-sanitizer --tool synccheck --kernel-name kns=attn_fwd_sm90 python3 -m dhpfa.measure.sanitize child 2>&1 | tail -3
echo "== A/B"
timeout ${AB_LIMIT:-330} python3 scripts/ab_sm90.py --out $OUT --module base=out/ab/sm90_base.py --reference base \
  --configs m192n128s2_x3_nopp,m192n128s2_x3 --cases 64:4096,64:8192,64:16384 --rounds 20 2>&1 | tail -9
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader
