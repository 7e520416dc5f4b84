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
