#!/bin/bash
# Session 11, device run 1: one exponential in 2 or 4 computed on the FP32 pipes instead of MUFU (ctmath.exp2_mix,
# sm90_fwd EXP_EMU, TileConfig.exp_emu). Correctness (float64, poisoned outputs, odd shapes, bf16 and fp16, and 7
# programs with many tiles each), then interleaved A/B against the same builds without it: D=64 three consumers,
# D=128 n128s2, the Triton 64x64 tiles (D=64 short cells), the few-program (1,8,512,64) call in graph replay; ncu
# pipe utilisation (MUFU = xu) of the D=64 / D=128 16K builds with and without.
# Needs docs/experiments/session11_exp_emu.diff applied (git apply, on commit ace7e2f): measured slower, not kept.
#   bash scripts/session11_run1.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT/ab" "$OUT/ab16"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv
timeout 150 python3 scripts/ab_sm90.py --out $OUT/ab_p7 --configs m192n128s2_x3_nopp_e4_p7 --cases "" 2>&1 | tail -2
timeout 330 python3 scripts/ab_sm90.py --out $OUT/ab --configs \
  m192n128s2_x3_nopp,m192n128s2_x3_nopp_e2,m192n128s2_x3_nopp_e4,n128s2_e2,n128s2_e4,n128s2,t_m64n64s3,t_m64n64s3_e2,t_m64n64s3_e4 \
  --cases 64:512,64:4096,64:16384,128:16384 --rounds 10 --reference tree/m192n128s2_x3_nopp 2>&1 \
  | grep -v "^correctness .*done"
timeout 120 python3 scripts/small_tiles.py --out $OUT --preset emu --shapes "1,8,512,64" --rounds 15
M="regex:sm__pipe_.*_cycles_active.avg.pct_of_peak_sustained_active,regex:sm__inst_executed_pipe_.*.avg.pct_of_peak_sustained_active,sm__inst_executed.avg.per_cycle_active,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second"
for d in 64 128; do for e in 0 4; do
  timeout 90 ncu --clock-control none --csv --metrics "$M" -k regex:attn_fwd -c 1 \
    python3 scripts/ncu_stalls.py --d $d --seq 16384 --exp-emu $e > $OUT/ncu_d${d}_e${e}.csv 2> $OUT/ncu_d${d}_e${e}.err
  echo "ncu d=$d e=$e rc=$?"
done; done
python3 - "$OUT" <<'PY'
import csv, glob, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "ncu_d*_e*.csv"))):
    rows = [r for r in csv.reader(l for l in open(f) if l.startswith('"'))]
    if not rows: print(f, "no rows"); continue
    hdr = rows[0]; im, iv = hdr.index("Metric Name"), hdr.index("Metric Value")
    vals = {r[im]: r[iv] for r in rows[1:]}
    keep = {k: v for k, v in vals.items() if any(t in k for t in ("xu", "tensor", "fma", "alu", "per_cycle", "duration", "per_second")) and v not in ("0", "0.00")}
    print(os.path.basename(f), "; ".join(f"{k.replace('.avg.pct_of_peak_sustained_active','')}={v}" for k, v in sorted(keep.items())))
PY
