#!/bin/bash
# Session 41 call 6: issue 5's 16K goals with sustained clocks (ab_sm90 --batch-ms 250: each kernel's batch lasts 250 ms
# a round, 9 interleaved rounds), the API beside the SDPA backends at D=64 / 128 / 256, causal and not.
#   bash scripts/session41_run6.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 scripts/ab_sm90.py --rounds 9 --no-correctness --reference dhpfa --batch-ms 250 --configs n128s2 \
  --cases 128:16384,256:16384,64:16384 --out "$OUT/ab" 2>&1 | grep "S[0-9]"
echo "elapsed $(( $(date +%s) - t0 )) s"
