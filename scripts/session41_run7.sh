#!/bin/bash
# Session 41 call 7: counters at (8,16,2048,128) non-causal for HEAD's source (build/head/src: 0fa4e65, before
# FULL_FIRST) and the tree's, twice each, alternating: do zeros / ones read fewer L2 sectors with both builds
# (timing-driven, as the repeats' spread suggests) or only with FULL_FIRST?
#   bash scripts/session41_run7.sh   (carry [".whl", "build/head"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for k in 1 2; do
  for src in build/head/src src; do
    tag=$([ $src = src ] && echo tree || echo head)$k
    PYTHONPATH=/tmp/xd:$PWD/$src:$PWD/tests:$PWD/scripts timeout 90 python3 -m dhpfa counters --shape 8,16,2048,128 \
      --out "$OUT/counters_$tag" > /dev/null 2>&1
    python3 - "$OUT/counters_$tag/counters.json" $tag <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]["dhpfa"]["per_call"]
m = "lts__t_sectors_srcunit_tex_op_read.sum"
print(sys.argv[2], " ".join(f"{c}={v[m] / 1e6:.2f}M" for c, v in d.items()), "insts",
      len({v["smsp__inst_executed.sum"] for v in d.values()}), "distinct")
PY
  done
done
echo "elapsed $(( $(date +%s) - t0 )) s"
