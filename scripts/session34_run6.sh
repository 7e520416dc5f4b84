#!/bin/bash
# Session 34 run 6 (after run 5, same warm machine): dudect on the paged decode steps once more (run 5's D=128 window
# case had bimodal medians: sink 152.5 us against 196-199; isolated calls, then queued back to back), and the D=256 window + soft-cap counters twice more (run 5:
# DRAM bytes read spread 6,912 B across classes against 2,816 across repeats), into directories without commas.
#   bash scripts/session34_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
for i in 1 2; do
  timeout 150 python3 scripts/varlen_counters.py --decode --page 256 --d 256 --causal --window 1023,0 --softcap 50 \
    --out "$OUT/counters_d256_$i" 2>&1 | tail -1
done
echo "counters $(( $(date +%s) - t0 )) s"
timeout 150 python3 scripts/paged_leak.py --decode --samples 1000 --out "$OUT" 2>&1 | tail -12
timeout 150 python3 scripts/paged_leak.py --decode --pipelined --samples 2000 --out "$OUT" 2>&1 | tail -12
python3 - "$OUT" <<'PY'
import json, os, sys
for name in ("paged_leak_decode.json", "paged_leak_decode_pipelined.json"):
    for c in json.load(open(os.path.join(sys.argv[1], name))):
        print(name, c["d"], c["window"], c["softcap"], {k: [round(x, 1) for x in v["p10_p90_us"]] for k, v in c.items()
                                                        if isinstance(v, dict) and "p10_p90_us" in v})
PY
for d in $OUT/counters_d256_*; do for f in $d/*; do mv "$f" "$d/$(basename "$f" | tr ',' '_')"; done; done
echo "elapsed $(( $(date +%s) - t0 )) s"
