#!/bin/bash
# Prepared in session 55 for the next session (not run): the merged decode kernel (sm90_decode.attn_decode_sm90_merged,
# variants.SWAP_DECODE_MERGE, D=128) switched on in this machine's copy of the tree, then the evidence its default
# needs: the whole test_gpu.py after a precompile, counters over eight rounds and dudect at two D=128 decode shapes it
# runs (one and two sequences), memcheck / synccheck once more. If all hold, set SWAP_DECODE_MERGE = True in the repo
# (variants' comment, README's decode paragraph, perf-log).
#   bash scripts/session56_run1.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
sed -i 's/^SWAP_DECODE_MERGE = False/SWAP_DECODE_MERGE = True/' src/dhpfa/kernels/variants.py
grep -n "^SWAP_DECODE_MERGE = " src/dhpfa/kernels/variants.py
{
for s in 1,32,1,128,32768,8 2,32,1,128,16384,8; do
  echo "== counters --rounds 8 $s ($(( $(date +%s) - t0 )) s)"
  timeout 200 python3 -m dhpfa counters --shape $s --rounds 8 --out "$OUT/counters_${s//,/_}" 2>&1 | tail -14
  echo "== leak $s ($(( $(date +%s) - t0 )) s)"
  timeout 45 python3 -m dhpfa leak --shape $s --samples 2000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
done
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 150 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
