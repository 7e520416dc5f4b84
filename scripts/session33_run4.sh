#!/bin/bash
# Session 33 run 4: the rule's crossover when the cache holds only the chunk (scripts/paged_rule_sweep.py --fresh: keys
# no longer than the queries, causal diagonal, in a 4,096-row cache), then the random-length sweep again (its spread).
#   bash scripts/session33_run4.sh   (device tool; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 250 python3 scripts/paged_rule_sweep.py --fresh --chunks 64,128,256,384,512,768 --rounds ${ROUNDS:-7} --out "$OUT" 2>&1 | tail -30
timeout 250 python3 scripts/paged_rule_sweep.py --chunks 64,128,256,512 --rounds ${ROUNDS:-7} --out "$OUT" 2>&1 | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
