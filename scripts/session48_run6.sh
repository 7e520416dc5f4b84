#!/bin/bash
# Session 48 call 6: each decode-like build's device duration by ncu (gpu__time_duration, one launch at a time,
# --clock-control none, --cache-control none) beside call 5's in-kernel stamps and graph-replay times.
#   bash scripts/session48_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
timeout 300 ncu --clock-control none --cache-control none --profile-from-start off --csv \
  --metrics gpu__time_duration.sum,sm__cycles_active.max,launch__grid_size,launch__cluster_dim_x \
  python3 scripts/decode_durations.py --launches 3 > "$OUT/durations.csv" 2> "$OUT/ncu.err"
echo "ncu rc $? $(( $(date +%s) - t0 )) s"
python3 - "$OUT/durations.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
hdr = rows[0]; data = rows[1:]
ix = {n: hdr.index(n) for n in ("ID", "Kernel Name", "Metric Name", "Metric Value")}
by = collections.defaultdict(dict)
for r in data:
    by[r[ix["ID"]]][r[ix["Metric Name"]]] = r[ix["Metric Value"]]
    by[r[ix["ID"]]]["kernel"] = r[ix["Kernel Name"]][:40]
for i, m in sorted(by.items(), key=lambda t: int(t[0])):
    print(i, m.get("kernel"), "dur", m.get("gpu__time_duration.sum"), "grid", m.get("launch__grid_size"),
          "cluster", m.get("launch__cluster_dim_x"), "sm_cyc_max", m.get("sm__cycles_active.max"))
PY
} 2>&1 | tee "$OUT/run.log"
