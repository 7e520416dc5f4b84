# Sourced by the device scripts (session 30 on): the import path (pytest-xdist from the carried .whl wheels, src,
# tests, scripts), $OUT, the GPU's name, clock and power, and t0 for the elapsed times they print.
export PYTHONPATH=/tmp/xd:$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
OUT=${OUT:-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
for w in .whl/*.whl; do [ -e "$w" ] && python3 -m zipfile -e "$w" /tmp/xd; done
t0=$(date +%s)
# The Triton cache in the working tree's build/ (kept between calls on a warm machine); scripts may set their own first.
export TRITON_CACHE_DIR=${TRITON_CACHE_DIR:-$PWD/build/tcache}
mkdir -p "$TRITON_CACHE_DIR"
# sanitize_decode TIMEOUT LINES LABEL ARGS...: scripts/decode_sanitize.py ARGS under memcheck, then synccheck (each
# within TIMEOUT s), the last LINES lines of each without the host frames (sessions 55-56).
sanitize_decode() {
  local limit=$1 lines=$2 label=$3; shift 3
  for tool in memcheck synccheck; do
    echo "== $tool, API decode$label ($(( $(date +%s) - t0 )) s)"
    timeout "$limit" compute-sanitizer --tool $tool --print-limit 3 python3 scripts/decode_sanitize.py "$@" 2>&1 \
      | grep -v "Host Frame" | grep -v "^=========\s*$" | tail -"$lines"
  done
}
# racecheck_decode TIMEOUT LINES SEED CASES: scripts/decode_sanitize.py --seed SEED --cases CASES under racecheck
# (within TIMEOUT s), the last LINES lines without the host frames (sessions 57-58).
racecheck_decode() {
  echo "== racecheck, API decode ($(( $(date +%s) - t0 )) s)"
  timeout "$1" compute-sanitizer --tool racecheck --print-limit 3 python3 scripts/decode_sanitize.py --seed "$3" \
    --cases "$4" 2>&1 | grep -v "Host Frame" | grep -v "^=========\s*$" | tail -"$2"
}
# decode_tests: the decode GPU tests (test_sm90_decode.py and test_gpu.py's decode / repeated-call tests) into
# $OUT/decode_tests.log, their summary and failures printed (sessions 56-57).
decode_tests() {
  echo "== decode tests ($(( $(date +%s) - t0 )) s)"
  timeout 200 python3 -m pytest -q -m gpu -n 8 tests/test_sm90_decode.py tests/test_gpu.py -k "decode or repeated_calls" \
    -o cache_dir=build/pcb -rf > "$OUT/decode_tests.log" 2>&1
  echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/decode_tests.log" | tail -2
  grep -E "^FAILED" "$OUT/decode_tests.log" | head -20
}
# whole_gpu_tests: precompile every audited variant (16 jobs), then the whole test_gpu.py into $OUT/gpu_tests.log, its
# summary and failures printed (sessions 57-59).
whole_gpu_tests() {
  echo "== precompile ($(( $(date +%s) - t0 )) s)"
  timeout 230 python3 scripts/precompile.py --jobs 16 2>&1 | tail -1
  timeout 200 python3 -m pytest -q -m gpu -n 6 --dist loadgroup tests/test_gpu.py -o cache_dir=build/pcb -rf \
    > "$OUT/gpu_tests.log" 2>&1
  echo "test_gpu rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/gpu_tests.log" | tail -2
  grep "^FAILED" "$OUT/gpu_tests.log" | head -20
}
# counters_and_leak SHAPE:ROUNDS ...: dhpfa counters over ROUNDS rounds (the ncu CSVs dropped: the JSON holds every
# round) and dhpfa leak (2,000 samples) at each --shape (sessions 56-57).
counters_and_leak() {
  local sr s r
  for sr in "$@"; do
    s=${sr%:*}; r=${sr#*:}
    echo "== counters --rounds $r $s ($(( $(date +%s) - t0 )) s)"
    timeout 120 python3 -m dhpfa counters --shape $s --rounds $r --out "$OUT/counters_${s//,/_}" 2>&1 | tail -10
    rm -f "$OUT"/counters_${s//,/_}/*.csv
    echo "== leak $s ($(( $(date +%s) - t0 )) s)"
    timeout 40 python3 -m dhpfa leak --shape $s --samples 2000 --out "$OUT/leak_${s//,/_}" 2>&1 | tail -1
  done
}
# kv_counters_and_leak ROUNDS SHAPE ...: dhpfa counters --kvcache over ROUNDS rounds (the ncu CSVs dropped) and dhpfa
# leak --kvcache (2,000 samples) at each shape B,H,1,D,Sk,H_kv (sessions 68-69).
kv_counters_and_leak() {
  local r=$1 s; shift
  for s in "$@"; do
    echo "== counters --kvcache --rounds $r $s ($(( $(date +%s) - t0 )) s)"
    timeout 130 python3 -m dhpfa counters --kvcache --shape $s --rounds $r --out "$OUT/kv_counters_${s//,/_}" 2>&1 \
      | tail -12
    rm -f "$OUT"/kv_counters_${s//,/_}/*.csv
    echo "== leak --kvcache $s ($(( $(date +%s) - t0 )) s)"
    timeout 60 python3 -m dhpfa leak --kvcache --shape $s --samples 2000 --out "$OUT/kv_leak_${s//,/_}" 2>&1 | tail -3
  done
}
# kvcache_tests TIMEOUT [EXPR]: test_varlen.py's kvcache GPU tests (session 69: or those of the -k expression EXPR) into
# $OUT/kv_tests.log, their summary and failures printed (session 67).
kvcache_tests() {
  echo "== kvcache GPU tests${2:+ ($2)} ($(( $(date +%s) - t0 )) s)"
  timeout "$1" python3 -m pytest -q -m gpu -n 8 tests/test_varlen.py -k "${2:-kvcache}" -o cache_dir=build/pcb -rf \
    > "$OUT/kv_tests.log" 2>&1
  echo "rc $? ($(( $(date +%s) - t0 )) s)"; grep -E "passed|failed" "$OUT/kv_tests.log" | tail -2
  grep -E "^FAILED" "$OUT/kv_tests.log" | head -20
}
# racecheck_kv TIMEOUT EXPR: compute-sanitizer racecheck over test_varlen.py's GPU tests of the -k expression EXPR, its
# last lines (session 69).
racecheck_kv() {
  echo "== racecheck ($2) ($(( $(date +%s) - t0 )) s)"
  timeout "$1" compute-sanitizer --tool racecheck --print-limit 3 python3 -m pytest -q -m gpu tests/test_varlen.py \
    -k "$2" -p no:cacheprovider 2>&1 | grep -v "Host Frame" | tail -3
}
# sanitize_kvcache TIMEOUT [CASES]: memcheck, then synccheck, over test_varlen.py's swap-kernel KV-cache test's bf16
# cases (session 67; CASES, session 68: a pytest -k expression ANDed with those, e.g. "(64x32 or 48x32)"), the summary
# lines of each.
sanitize_kvcache() {
  local sel="swap_kernels and bf16${2:+ and $2}"
  for tool in memcheck synccheck; do
    echo "== $tool, kvcache on the swap kernels${2:+ ($2)} ($(( $(date +%s) - t0 )) s)"
    timeout "$1" compute-sanitizer --tool $tool --print-limit 3 python3 -m pytest -q -m gpu tests/test_varlen.py \
      -k "$sel" -o cache_dir=build/pcb -p no:cacheprovider 2>&1 | grep -v "Host Frame" \
      | grep -E "ERROR SUMMARY|passed|failed|Error" | tail -4
  done
}
