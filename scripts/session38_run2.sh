#!/bin/bash
# Session 38 call 3: call 2's timeline put Q's wait at 13% and the epilogue at 13% of each consumer's time at D=128
# causal 512 (n64s3_bal). The timeline of the same build with two Q buffers (n64s3_bal_qd, n64s3_qd), and a graph-replay
# A/B of them (15 rounds, with cuDNN). TRACES="case,config ..." and AB_CONFIGS="a,b" choose others.
#   bash scripts/session38_run2.sh   (carry [".whl"]; writes $OUT/run2.tar.gz and logs)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p "$OUT/t"
for c in ${TRACES:-"128:32:16:512:causal n64s3_bal" "128:32:16:512:causal n64s3_bal_qd" "128:32:16:512:causal n64s3_qd"} \
         ${EXTRA_TRACES}; do
  set -- ${c/,/ }
  timeout 240 python3 scripts/trace_timeline.py --case "$1" --config "$2" --out "$OUT/t" > "$OUT/t/trace_$2_${1//:/_}.log" 2>&1
  echo "== $c rc $?"; grep -v "^ *c1_" "$OUT/t/trace_$2_${1//:/_}.log" | head -c 2000
done
timeout 300 python3 scripts/ab_sm90.py --cases 128:512 --graph --rounds 15 --reference dhpfa \
  --configs ${AB_CONFIGS:-n64s3_bal,n64s3_bal_qd,n64s3_qd,n64s3_bal_qd_p7} --out "$OUT/t" > "$OUT/t/ab.log" 2>&1
echo "== ab rc $?"; grep -v "^$" "$OUT/t/ab.log" | tail -14
tar czf "$OUT/run.tar.gz" -C "$OUT" t && rm -rf "$OUT/t"
echo "elapsed $(( $(date +%s) - t0 )) s"
