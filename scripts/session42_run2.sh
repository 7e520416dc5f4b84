#!/bin/bash
# Session 42 call 2: (1) session 41's class-dependent L2 read requests: the same ncu split (requests, sectors, lookup
# hits / misses, time, DRAM bytes, instructions) at a shape where no two SMs read the same K/V (132 heads of one
# 128-query tile each against 4,096 keys: one unit per SM) beside (8,16,2048,128), where 16 tiles of each head share
# its K/V; launches: fixed-random, zeros, ones, spiky, sink, repeat-1..5 (dhpfa.measure.counters child). (2) issue 5's
# table this session: the quick grid, the small shapes and the short cells (dhpfa bench).
#   bash scripts/session42_run2.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
M=lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,gpu__time_duration.sum,dram__bytes_read.sum,sm__inst_executed.sum
run() {
  echo "== $1"
  timeout 150 ncu --clock-control none --profile-from-start off --csv --print-units base --metrics "$M" \
    python3 -m dhpfa.measure.counters child dhpfa "$1" 2>&1 | grep -E '^"[0-9]' \
    | awk -F'","' '{print $1, substr($5,1,30), $9, $(NF-2), $NF}' | tr -d '"' | tee -a "$OUT/ncu_l2_$1.txt"
}
{
run 1,132,128,128,4096,132
echo "elapsed $(( $(date +%s) - t0 )) s"
run 8,16,2048,128
echo "elapsed $(( $(date +%s) - t0 )) s (launches: fixed-random zeros ones spiky sink repeat-1..5)"
timeout 280 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa bench --quick --dtypes bf16 --parts short --out "$OUT/short" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
