#!/bin/bash
# Session 12, device run 6: the split across programs with a per-call nonce in place of the fixed magic. GPU tests
# (the API path, the split variants against float64 and the audited binary, the Gluon kernel tests), memcheck and
# synccheck, graph-replay cost of the flag handling (scripts/split_kv_flags.py), counters through the API.
#   bash scripts/session12_run6.sh   (writes under $OUT)
export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
timeout 200 python3 -m pytest -q -m gpu tests/test_gpu.py -k "kv2 or split_the_keys_across or few_program" \
  -p no:cacheprovider 2>&1 | tail -2
timeout 240 python3 -m pytest -q -m gpu tests/test_sm90_fwd.py tests/test_plans.py tests/test_tune.py -k "not thousands" \
  -p no:cacheprovider 2>&1 | tail -2
bash scripts/sanitize_child.sh
timeout 100 python3 scripts/split_kv_flags.py --out $OUT --rounds 9
timeout 60 python3 scripts/split_kv_check.py --out $OUT 2>&1 | grep -E "determinism|FAILURES"
COUNTERS_LIMIT=150 bash scripts/counters_batch.sh "1,4,1024,64" 2>&1 | head -4
