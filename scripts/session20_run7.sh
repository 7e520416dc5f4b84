#!/bin/bash
# Session 20, device run 7: evidence for the varlen builds of runs 4-6: hardware counters across input classes of a
# decode step (grouped heads, split across programs, combine kernel) and of a plain causal prefill;
# dudect on a decode step and a prefill; the decode part of the bench with the grouped-but-whole build fixed.
#   bash scripts/session20_run7.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 150 python3 scripts/precompile.py --match varlen --match bf16 --jobs 16 2>&1 | tail -1
timeout 150 python3 scripts/varlen_counters.py --out "$OUT/counters" --d 128 --causal --decode 2>&1 | tail -3
timeout 150 python3 scripts/varlen_counters.py --out "$OUT/counters" --d 128 --causal 2>&1 | tail -3
timeout 300 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 7 --leak-samples 2000 --parts decode 2>&1 | tail -12
