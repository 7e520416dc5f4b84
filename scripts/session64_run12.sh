#!/bin/bash
# Session 64 call 12 (the session's last): the decode GPU tests on the final rule (the spread to 12 x the SMs' pairs),
# rule_check --set s64c, memcheck / synccheck over API calls past 8 x the SMs' pairs, the bench's GPU tests and its
# decode part (the decode table with this session's rules).
#   bash scripts/session64_run12.sh   (carry [".whl"]; writes under $OUT; about 4 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
decode_tests
echo "== rule_check s64c ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/rule_check.py --set s64c --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -8
sanitize_decode 60 3 " (spread past 8x)" --cases "275,32,4,1025,128;375,32,4,2000,128"
echo "== test_measure GPU tests ($(( $(date +%s) - t0 )) s)"
timeout 60 python3 -m pytest -q -m gpu tests/test_measure.py -o cache_dir=build/pcb 2>&1 | tail -1
echo "== dhpfa bench --parts decode ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m dhpfa bench --parts decode --dtypes bf16 --out "$OUT/bench" 2>&1 | grep -v Warning | tail -38
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
