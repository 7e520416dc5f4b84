#!/bin/bash
# Session 40 call 5: a share of the softmax's exponentials on the FMA pipes (sm90_fwd EXP_EMU, _exp2_fma) in copies of
# sm90_fwd with EXP_EMU = 2 (half of them) and 4 (a quarter), carried as src/dhpfa/kernels/_ab_emu{2,4}.py: correctness
# of every module (float64, odd shapes), then the D=64 three-consumer build (MUFU-bound: 16 EX2 a clock per SM) and the
# D=128 / 256 long builds against the tree (EXP_EMU = 0) and the API.   (carry [".whl", the two copies]; writes $OUT)
source "$(dirname "$0")/device_prelude.sh"
M="--module emu2=src/dhpfa/kernels/_ab_emu2.py --module emu4=src/dhpfa/kernels/_ab_emu4.py"
{
timeout 60 python3 scripts/precompile_ab.py --configs m192n128s2_x3_nopp,n128s2,n64s2_or 2>&1 | tail -1
timeout 240 python3 scripts/ab_sm90.py --rounds 1 --cases "" --check-all $M --configs m192n128s2_x3_nopp,n128s2,n64s2_or \
  --out "$OUT/check" 2>&1 | grep -v "^$" | tail -8
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 240 python3 scripts/ab_sm90.py --rounds 9 --no-correctness --reference dhpfa $M \
  --cases 64:1024,64:4096,64:16384,128:4096,128:16384,256:16384 --configs m192n128s2_x3_nopp,n128s2,n64s2_or \
  --out "$OUT/ab" 2>&1 | grep -v "^$" | tail -16
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
