#!/bin/bash
# Session 65 call 5 (the session's final source): rule_check --set s65b (D=64's band and spread to 32,768 keys against
# call 3's rule), memcheck / synccheck over calls the change takes, test_sm90_decode.py's GPU tests, then the precompile
# and the whole test_gpu.py; then (exploration) D=128 b20 at 3,072-4,096 keys, D=64 at 65,536 keys.
#   bash scripts/session65_run5.sh   (carry [".whl"]; writes under $OUT; about 7 minutes)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== rule_check s65b ($(( $(date +%s) - t0 )) s)"
timeout 120 python3 scripts/rule_check.py --set s65b --rounds 7 --out "$OUT/rule" 2>&1 | grep -v Warning | tail -10
sanitize_decode 90 3 " (D=64 to 32,768 keys)" --cases "21,32,8,32767,64;100,32,4,20001,64"
echo "== test_sm90_decode GPU tests ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m pytest -q -m gpu -n 8 tests/test_sm90_decode.py -o cache_dir=build/pcb -rf > "$OUT/sm90_decode.log" 2>&1
echo "rc $?"; grep -E "passed|failed" "$OUT/sm90_decode.log" | tail -1; grep "^FAILED" "$OUT/sm90_decode.log" | head
whole_gpu_tests
echo "== exploration: D=128 past the spread's keys, D=64 past 32,768 keys ($(( $(date +%s) - t0 )) s)"
timeout 100 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 128 --keys 3072,4096 --heads 32:4 \
  --batches 105,133,213 --builds b20 --out "$OUT/x128" 2>&1 | grep -v Warning | grep -v "^check "
timeout 100 python3 scripts/decode_stream_whole63.py --rounds 5 --dims 64 --keys 65536 --heads 32:8 \
  --batches 21,25,33 --builds w128s2,b20 --out "$OUT/x64" 2>&1 | grep -v Warning | grep -v "^check "
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
