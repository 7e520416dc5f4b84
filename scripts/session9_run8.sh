#!/bin/bash
# Session 9, device run 8: the shipped D=128 build with two Q buffers (variants._GLUON_N128S2_QD): GPU tests
# (the new variants, the persistent builds, the API on the protocol grid, determinism, head dims) in parallel
# pytest processes, beside compute-sanitizer memcheck / synccheck / racecheck over the sanitizer child (its
# D=128 / 256 case now has 144 units on 132 SMs, so some programs run two tiles) and over a grid of 288
# units (2-3 tiles a program).
#   bash scripts/session9_run8.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
(
  TOOLS="memcheck synccheck" SAN_LIMIT=200 bash scripts/sanitize_child.sh > $OUT/sanitize_child.txt 2>&1
  for tool in memcheck racecheck synccheck; do
    echo "== $tool (8,1100,1300,4/2,128)"
    timeout 150 compute-sanitizer --tool $tool --kernel-name kns=attn_fwd python3 -c "
import torch, dhpfa
g = torch.Generator(device='cuda').manual_seed(1)
for causal in (False, True):
    q = torch.randn(8, 1100, 4, 128, device='cuda', dtype=torch.bfloat16, generator=g)
    k = torch.randn(8, 1300, 2, 128, device='cuda', dtype=torch.bfloat16, generator=g)
    v = torch.randn(8, 1300, 2, 128, device='cuda', dtype=torch.bfloat16, generator=g)
    o = dhpfa.flash_attn_func(q, k, v, causal=causal)
torch.cuda.synchronize(); print('grid done', bool(o.isfinite().all()))" 2>&1 | grep -E "SUMMARY|done|Error|Race reported" | sort | uniq -c | head -8
  done > $OUT/sanitize_grid.txt 2>&1
) &
bash scripts/session9_tests.sh 330 "qd or persistent" "protocol_grid or bitwise or repeated_calls" "head_dims"
wait
cat $OUT/sanitize_child.txt $OUT/sanitize_grid.txt
