#!/bin/bash
# Session 34 run 4: the portable kernel's grouped paged builds with a window and / or soft-cap (no page copy at decode
# steps): precompile the varlen variants, then the paged / window / soft-cap / kvcache GPU tests of test_varlen.py
# (6 workers; what fails once more on 2), then memcheck and synccheck over the sanitizer child's grouped paged part.
#   bash scripts/session34_run4.sh   (carry [".whl"]; writes under $OUT)
source "$(dirname "$0")/device_prelude.sh"
timeout 200 python3 scripts/precompile.py --jobs 16 --match varlen 2>&1 | tail -1
echo "precompile $(( $(date +%s) - t0 )) s"
sel="paged or window or kvcache or softcap"
timeout 260 python3 -m pytest -q -m gpu -n 6 tests/test_varlen.py -k "$sel" -o cache_dir=build/pc4 -rf \
  > "$OUT/tests4.log" 2>&1
echo "tests rc $? $(( $(date +%s) - t0 )) s"; grep -E "passed|failed" "$OUT/tests4.log" | tail -1
grep "^FAILED" "$OUT/tests4.log" | head -20
timeout 60 python3 -m pytest -q -m gpu -n 2 tests/test_varlen.py -k "$sel" -o cache_dir=build/pc4 --lf --lfnf=none \
  -rf 2>&1 | tail -3
SAN_PART=grouped_paged SAN_LIMIT=100 bash scripts/sanitize_child.sh
echo "elapsed $(( $(date +%s) - t0 )) s"
