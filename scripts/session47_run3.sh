#!/bin/bash
# Session 47 call 3: after PACKED_SPLIT_KV_SHARE (b3b159f): the GPU tests of packed grouped-query calls (test_gpu.py -k
# pack: every head dim, bf16 / fp16, the split counts the rule gives), a sweep of serving shapes against cuDNN and
# FlashAttention-2 (peer_sweep --set wide3: decode over batches and lengths, MHA / MQA decode, chunks against caches),
# and issue 5's table (dhpfa bench --quick: grid, small, short).
#   bash scripts/session47_run3.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
timeout 200 python3 scripts/precompile.py --jobs 16 --match kv 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
timeout 200 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -k pack -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests_pack.log" 2>&1
echo "test_gpu -k pack rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/gpu_tests_pack.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests_pack.log" | head -20
timeout 200 python3 scripts/peer_sweep.py --out "$OUT" --set wide3 --precompile 15 --rounds 5 --budget-s 120 2>&1 | grep -E "<|cells"
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 150 python3 -m dhpfa bench --quick --dtypes bf16 --parts grid,small --out "$OUT/bench" 2>&1 | grep -v "^$" | tail -40
echo "elapsed $(( $(date +%s) - t0 )) s"
timeout 60 python3 -m dhpfa bench --quick --dtypes bf16 --parts short --out "$OUT/short" 2>&1 | grep -v "^$" | tail -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
