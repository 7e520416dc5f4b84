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
