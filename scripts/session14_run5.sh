#!/bin/bash
# Session 14, device run 5: (1) A/B of the split builds storing only the tile's rows below SEQ_Q at their meetings
# (sm90_fwd SPLIT_KV_ROWS, scripts/kv_rows_ab.py); (2) GPU tests of every kv8/kv16 variant (float64, full grid,
# launched == audited, cached == JIT) and of the API paths packing now reaches (odd shapes at every head dim, repeated
# calls, determinism, torch.compile); (3) packed decode at the other head dims beside the SDPA backends.
#   bash scripts/session14_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 scripts/kv_rows_ab.py --out $OUT 2>&1 | grep -v Warning | tail -14
timeout 250 python3 -m pytest -q -m gpu tests/test_gpu.py -p no:cacheprovider \
  -k "kv8ov or kv16ov or head_dims_odd_shapes or repeated_calls or bitwise or torch_compile" 2>&1 | tail -3
timeout 100 python3 scripts/decode_probe.py --out $OUT/dims --rounds 5 --shapes \
  "8,32,8192,32,8;8,32,8192,96,8;8,16,8192,192,4;8,16,8192,256,4;1,16,8192,256,4" 2>&1 | grep "^("
