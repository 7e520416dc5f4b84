#!/bin/bash
# Session 41 call 9: where zeros / ones read fewer L2 sectors (calls 4 and 7): the counters child (5 classes, then 5
# repeats of fixed-random) at (8,16,2048,128) non-causal under ncu with the SMs' L2 read sectors split into lookup hits
# and misses, requests, time; then the L2 fabric's sectors (a metric name that may not exist: its own run).
#   bash scripts/session41_run9.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
run() {
  timeout 100 ncu --clock-control none --profile-from-start off --csv --print-units base --metrics "$1" \
    python3 -m dhpfa.measure.counters child dhpfa 8,16,2048,128 2>&1 | grep -E '^"[0-9]' \
    | awk -F'","' '{print $1, $(NF-2), $NF}' | tr -d '"' | tee -a "$OUT/ncu_l2.txt"
}
run lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_requests_srcunit_tex_op_read.sum,gpu__time_duration.sum
echo "elapsed $(( $(date +%s) - t0 )) s (launches: fixed-random zeros ones spiky sink repeat-1..5)"
run lts__t_sectors_srcunit_ltcfabric.sum || echo "fabric metric run failed"
echo "elapsed $(( $(date +%s) - t0 )) s"
