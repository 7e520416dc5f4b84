#!/bin/bash
# A new D=256 causal build against the one before it (session 40): precompile both (and NEW's 7-program form),
# correctness of NEW (float64, odd shapes, 7 programs), NEW's timeline at causal 512 (B=32, H=8), and an A/B at 512-4K.
#   BASE=n64s2_vs NEW=n64s2_vsoh ROUNDS=15 bash scripts/build_timeline_ab.sh   (device; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 60 python3 scripts/precompile_ab.py --configs $BASE,$NEW,${NEW}_p7 --dims 256 2>&1 | tail -1
timeout 120 python3 scripts/ab_sm90.py --rounds 1 --cases "" --configs $NEW,${NEW}_p7 --out "$OUT/check" \
  2>&1 | grep -v "^$" | tail -4
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 100 python3 scripts/trace_timeline.py --case 256:32:8:512:causal --config $NEW --rounds 5 \
  --out "$OUT/$NEW" > "$OUT/$NEW.log" 2>&1
echo "== timeline rc $? $(( $(date +%s) - t0 )) s"; grep -v "^$" "$OUT/$NEW.log" | head -24
timeout 200 python3 scripts/ab_sm90.py --rounds ${ROUNDS:-15} --no-correctness --reference dhpfa \
  --cases 256:512,256:1024,256:2048,256:4096 --configs $BASE,$NEW --out "$OUT/ab" 2>&1 | grep -v "^$" | tail -30
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
