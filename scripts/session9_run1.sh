#!/bin/bash
# Session 9, device run 1: exp2 on the FMA pipe for e of every 8 exponentials of unmasked blocks
# (ctmath.exp2_asm; TileConfig.exp2_emu / launch exp2_emu=), A/B against e=0 in random-order rounds:
# D=64 three consumers (8K, 16K), D=64 Triton short tiles (512-4K), D=128 two consumers (512, 2K, 16K).
# Then the ncu side-by-side prepared in session 8 (scripts/session9_first.sh).
# The exp2 code was removed after this run; to repeat it, apply docs/experiments/session9_exp2_fma.diff and
# restore the t_m64n64s3_e* and *_e* configurations of scripts/ab_sm90.py (git show fc13271).
#   bash scripts/session9_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/x3" "$OUT/short" "$OUT/d128"
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
ab() {  # ab DIR CONFIGS CASES REFERENCE
  timeout 240 python3 scripts/ab_sm90.py --out $OUT/$1 --configs $2 --cases $3 --rounds 10 --reference tree/$4 2>&1 \
    | grep -vE "^correctness .*done" | tail -14
}
ab x3 m192n128s2_x3_nopp,m192n128s2_x3_nopp_e1,m192n128s2_x3_nopp_e2,m192n128s2_x3_nopp_e3 64:8192,64:16384 m192n128s2_x3_nopp
ab short t_m64n64s3,t_m64n64s3_e1,t_m64n64s3_e2,t_m64n64s3_e3 64:512,64:1024,64:2048,64:4096 t_m64n64s3
ab d128 n128s2,n128s2_e1,n128s2_e2 128:512,128:2048,128:16384 n128s2
