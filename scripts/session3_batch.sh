#!/bin/bash
# Session 3, device run 1: persistent Gluon kernel correctness and speed, autotuner, ncu stalls, racecheck
# on the smallest warp-specialised kernel.   bash scripts/session3_batch.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
echo "== pytest gluon kernel (gpu)"
timeout ${PYTEST_LIMIT:-240} python3 -m pytest tests/test_sm90_fwd.py -m gpu -q -x -p no:cacheprovider 2>&1 | tail -6
echo "== D256 correctness"
timeout 120 python3 scripts/sm90_check.py --out $OUT/c256 --configs pp_m128n64s2_p,pp_m128n64s2_p7 --no-speed 2>&1 | tail -4
echo "== racecheck, smallest warp-specialised kernel"
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 120 $CS --tool racecheck --racecheck-report hazard python3 scripts/racecheck_minimal.py > $OUT/racecheck_minimal.txt 2>&1
grep -E "RACECHECK SUMMARY|relative error|Error|hazard" $OUT/racecheck_minimal.txt | sort | uniq -c | head -12
echo "== speed"
timeout ${SPEED_LIMIT:-300} python3 scripts/sm90_check.py --out $OUT --no-correctness \
  --configs ${SPEED_CONFIGS:-pp_m128n128s2,pp_m128n128s2_p,pp_m128n64s3_p,pp_m128n128s3_p,pp_m128n64s2,pp_m128n64s2_p} \
  --cases ${CASES:-64:512,64:2048,64:16384,128:512,128:1024,128:2048,128:16384,256:512,256:2048,256:16384} 2>&1 | tail -24
echo "== ncu stalls D128 S16K persistent"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 150 $NCU --clock-control none --section WarpStateStats --section SchedulerStats --section SpeedOfLight \
  -k regex:attn_fwd_sm90_ws -c 1 python3 scripts/ncu_stalls.py --d 128 --seq 16384 > $OUT/ncu_d128.txt 2>&1
grep -E "Stall|Issued|Eligible|Active Warps|Throughput|Duration|No Eligible|One or More" $OUT/ncu_d128.txt | head -40
if [ -n "$RUN_TUNE" ]; then
  echo "== tune"
  DHPFA_CACHE_DIR=$OUT timeout ${TUNE_LIMIT:-240} python3 -m dhpfa tune --out $OUT/tuned 2>&1 | tail -40
fi
