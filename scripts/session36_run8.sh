#!/bin/bash
# Session 36 call 8: did planned eager decode steps get slower? dudect's medians in call 7 (180-245 us) were twice
# session 35's (82-106 us, another machine). Session 35's source (build/old_src, carried) and this tree in alternating
# processes: kvcache_leak.py's medians (200 samples a class) and kvcache_host.py's host / wall time per eager step.
#   bash scripts/session36_run8.sh   (carry [".whl", "build/old_src"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for cfg in old new old new; do
  if [ $cfg = old ]; then P=/tmp/xd:$PWD/build/old_src/src:$PWD/scripts; else P=$PYTHONPATH; fi
  echo "== $cfg leak medians"
  env PYTHONPATH=$P timeout 120 python3 scripts/kvcache_leak.py --samples 200 --out "$OUT/$cfg" 2>&1 | grep "^| dhpfa" \
    | sed 's/.*| \([0-9.]* \/ [0-9.]*\) .*/\1/'
  echo "== $cfg host"
  env PYTHONPATH=$P timeout 100 python3 scripts/kvcache_host.py --calls 200 --out "$OUT/$cfg" 2>&1 | cut -c1-90 | tail -9
done
echo "elapsed $(( $(date +%s) - t0 )) s"
