#!/bin/bash
# Session 10, device run 14: per-warp release of K/V ring slots (EXPERIMENT, out/ab/sm90_warparrive.py = base with
# docs/experiments/session10_warp_arrive.diff applied; carry
# out/ab): one elected lane per consumer warp arrives on the empty barrier in inline PTX (count 4 per consumer),
# so Triton's membar pass puts no warpgroup bar.sync before it (it does before every one-thread
# mbarrier.arrive); the barriers' offsets in shared memory are hard-coded from the PTX of n128s2 at D=128
# (empty_k at global_smem + 196912, empty_v at + 196928), so only that build is run. Offline: BAR.SYNC 53 -> 38.
# Against base (HEAD's kernel with absolute imports), correctness of both first.
#   bash scripts/session10_run14.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/wa"
timeout 400 python3 scripts/ab_sm90.py --out $OUT/wa --module base=out/ab/sm90_base.py --module wa=out/ab/sm90_warparrive.py \
  --check-all --configs n128s2 --cases 128:1024,128:16384 --rounds 12 --reference base/n128s2 2>&1 \
  | grep -vE "^correctness .*done" | tail -8
