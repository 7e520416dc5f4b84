#!/bin/bash
# Session 40 call 3: compute-sanitizer memcheck and synccheck over the sanitizer child on this session's code (its
# D=256 grid of 4 x 1100 queries reaches the O_REG and V_STAGE builds shipped in session 39, not sanitized there),
# kernels compiled first.   bash scripts/session40_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
{
timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
python3 - <<'PY'
import torch
from dhpfa.kernels import variants
for causal in (False, True):
    v = variants.select(torch.bfloat16, 256, causal, False, 1300, sm90=True)
    print("D=256 causal" if causal else "D=256", "seq_k 1300 ->", v.config)
PY
SAN_LIMIT=${SAN_LIMIT:-190} SAN_TAIL=3 bash scripts/sanitize_child.sh
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
