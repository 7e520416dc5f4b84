#!/bin/bash
# Session 20, device run 1: flash_attn_varlen_func (the portable kernel attn_fwd_varlen) on the GPU: its float64 tests
# (every head dim, bf16 / fp16, causal and not, mixed lengths, bitwise repeats, launched == audited), then its speed
# beside FA2's varlen kernel and the padded dense calls, host time, and a dudect-style leak test.
#   bash scripts/session20_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 120 python3 scripts/precompile.py --match varlen --jobs 16 2>&1 | tail -1
timeout 240 python3 -m pytest -q -m gpu tests/test_varlen.py -p no:cacheprovider 2>&1 | tail -4
timeout 420 python3 scripts/varlen_bench.py --out "$OUT/varlen" --rounds 9 --leak-samples 1000 2>&1 | tail -20
