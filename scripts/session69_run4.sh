#!/bin/bash
# Session 69 call 4: the decode GPU tests on the changed stream kernel source (its dense builds' SASS unchanged
# offline), then hardware counters and dudect through flash_attn_with_kvcache on the stream build's KV-cache form
# (34 sequences, 272 pairs: its flat schedule, lengths 4,096 - 131 i: blocks skipped and last blocks zeroed past the
# keys) and on the merged KV-cache form (4 sequences at D=64: every last block partial, V's rows past the keys zeroed).
#   bash scripts/session69_run4.sh   (carry [".whl"]; writes under $OUT; about 8 minutes)
source "$(dirname "$0")/device_prelude.sh"
{
decode_tests
kv_counters_and_leak 3 34,32,1,128,4096,8 4,32,1,64,2048,8  # (as run in call 4: the same loop, since moved to the prelude)
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
