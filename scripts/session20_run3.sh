#!/bin/bash
# Session 20, device run 3: varlen with local windows and soft-capping (72 varlen variants): GPU tests, speed of the
# options beside the plain causal call and FA2's varlen kernel, the varlen grid again, hardware counters across input
# classes (plain causal, and window + softcap), and the dudect test.
#   bash scripts/session20_run3.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 200 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -3
timeout 150 python3 scripts/varlen_counters.py --out "$OUT/counters" --d 128 --causal 2>&1 | tail -3
timeout 150 python3 scripts/varlen_counters.py --out "$OUT/counters" --d 128 --causal --window 256,0 --softcap 30 2>&1 | tail -3
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 2000 2>&1 | tail -16
