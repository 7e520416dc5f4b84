#!/bin/bash
# Session 54 call 8 (the final source): the rule after call 7 (16 parts for 4-8 pairs, 8 parts for 16; 2 and 15 pairs
# back on the forward kernels): the decode GPU tests, rule_check --set swap54, D=64 ring depth (three stages against
# six, 128-key blocks: not shipped, measured for the next session), then the whole test_gpu.py after a precompile.
#   bash scripts/session54_run8.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
mkdir -p build
{
echo "== decode tests ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 -m pytest -q -m gpu -n 6 tests/test_sm90_decode.py tests/test_gpu.py -k "decode" \
  -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
grep -E "^FAILED" "$OUT/decode_tests.log" | head -20
echo "== rule_check swap54 ($(( $(date +%s) - t0 )) s)"
timeout 150 python3 scripts/rule_check.py --out "$OUT/rc" --set swap54 --rounds 7 2>&1 | grep -v "^$" | tail -20
echo "== D=64 stages ($(( $(date +%s) - t0 )) s)"
timeout 80 python3 - <<'PY'
import torch, statistics
import decode_swap_ab as A
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
for b, h, hk, sk, d, p in ((1, 32, 8, 16384, 64, 16), (1, 32, 8, 65536, 64, 16), (2, 32, 8, 4096, 64, 8),
                           (2, 32, 8, 16384, 64, 8), (1, 32, 4, 32768, 64, 16)):
    ks = {"api": bench.peer_kernels(gqa=True)["dhpfa"], "cudnn": bench.peer_kernels(gqa=True)["sdpa_cudnn"]}
    for st in (3, 4, 6):
        ks[f"p{p}s{st}"] = A.run_decode((p, 128, st))
    g = torch.Generator(device="cuda").manual_seed(2)
    sets = [(torch.randn(b, h, 1, d, device="cuda", dtype=torch.bfloat16, generator=g),
             *(torch.randn(b, hk, sk, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2)))
            for _ in range(3)]
    t = interleaved_ms(ks, sets, False, rounds=7, graph=True, batch_ms=5.0)
    print((b, h, hk, 1, sk, d), "  ".join(f"{n} {statistics.median(v) * 1000:.2f}" for n, v in t.items()), flush=True)
PY
echo "== precompile ($(( $(date +%s) - t0 )) s)"
timeout 200 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
timeout 150 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
  > "$OUT/gpu_tests.log" 2>&1
echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
grep "^FAILED" "$OUT/gpu_tests.log" | head -20
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee "$OUT/run.log"
