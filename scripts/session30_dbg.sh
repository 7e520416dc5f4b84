#!/bin/bash
# Session 30: debugging the Hopper varlen kernel's illegal address (which buffer, which side).
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore
run() { echo "== $*"; timeout 60 python3 scripts/varlen_sm90_smoke.py "$@" 2>&1 | grep -E '^D=|Error' | tail -2; }
run --dims 192,256 --repeat 3
run --dims 192,256 --repeat 3 --pad 512 --where front
run --dims 192,256 --repeat 3 --pad 512 --where back
run --dims 192,256 --repeat 3 --pad 512 --what inputs
run --dims 192,256 --repeat 3 --pad 512 --what outputs
run --dims 192,256 --repeat 3 --pad 512 --where front --what inputs
run --dims 192,256 --repeat 3 --pad 512 --where back --what outputs
