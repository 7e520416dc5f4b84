#!/bin/bash
# Session 27 run 5: the whole GPU suite on the final source (split-across-programs builds run non-causal calls on their
# causal binary: dispatch.SPLIT_KV_FULL_AS_CAUSAL), by the commands of session 26 run 7: test_gpu + test_sm90_fwd +
# test_varlen under pytest-xdist (8 workers; what fails there, e.g. out of memory beside other workers, once more on
# 2), then compute-sanitizer memcheck and synccheck over the sanitizer child. Set-up as that script says.
#   bash scripts/session27_run5.sh   (device tool: carry [".whl"]; writes under $OUT)
exec bash "$(dirname "$0")/session26_run7.sh" "$@"
