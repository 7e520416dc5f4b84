#!/bin/bash
# Session 13, device run 5: 256-key blocks for the one-consumer few-program build at D=64 (half the steps of the serial
# chain; PV_OVERLAP spills there, so without it) against the shipped 64x128 build with PV_OVERLAP, sweeping the keys at
# 512 queries and 8 heads; and decode-like calls (one query per sequence) beside the SDPA backends (decode_probe.py).
#   bash scripts/session13_run5.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 60 python3 -c "
import functools, torch
from dhpfa.kernels import dispatch, variants
from sm90_check import check
v = variants.Variant('attn_fwd_sm90_ws', variants.TileConfig(64, 256, 4, 2), torch.bfloat16, 64, False)
for b, sq, sk, h in ((1, 512, 512, 8), (2, 333, 1000, 3), (1, 64, 100, 2)):
    print(v.name, (b, sq, sk, h), 'err %.2e bad %s' % check(b, sq, sk, h, h, 64, False, torch.bfloat16, {},
                                                            launch=functools.partial(dispatch.launch, v)))"
timeout 120 python3 scripts/small_sweep.py --out $OUT/d64h8 --d 64 --heads 8 --seq-k 256,512,768,1024 --rounds 11 \
  --kernels gluon_x1_m64n128s2,gluon_x1_m64n128s2_ov,gluon_x1_m64n256s2 | grep -E "^seq_k|^fit"
timeout 200 python3 scripts/decode_probe.py --out $OUT
