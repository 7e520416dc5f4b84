#!/bin/bash
# Session 39 call 5: (1) counters at (32,8,512,256) non-causal for this tree's build (O from registers) and HEAD's
# (build/head_src: a copy of 12b27e6's src, carried; its API runs n64s2 there), one after the other, so the DRAM write
# bytes and control counts are read beside their own baseline; (2) ROW_BOUND on the Hopper varlen causal builds: the
# whole varlen GPU file.   bash scripts/session39_run5.sh   (carry [".whl", "build/head_src"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
for v in tree head; do
  pp=$PYTHONPATH; [ $v = head ] && pp=$PWD/build/head_src/src:$PYTHONPATH
  PYTHONPATH=$pp timeout 60 python3 -m dhpfa counters --shape 32,8,512,256 --out "$OUT/counters_$v" 2>&1 | tail -3
  echo "== counters $v $(( $(date +%s) - t0 )) s"
done
timeout 60 python3 scripts/precompile.py --jobs 16 --match sm90_varlen 2>&1 | tail -1
timeout 330 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_varlen.py -p no:cacheprovider -rf \
  > "$OUT/varlen_tests.log" 2>&1
echo "== varlen tests rc $? $(( $(date +%s) - t0 )) s"; tail -4 "$OUT/varlen_tests.log"
} 2>&1 | tee "$OUT/run.log"
