#!/bin/bash
# (Ran on an intermediate form of the cluster build, not in the tree: docs/perf-log.md "Session 43" describes each; call 4's
# no-meeting configurations are gone. The shipped form is that of calls 9-11.)
# Session 43 call 8: the bulk-copy cluster meeting with part 1 taking the first (n - 1) // 2 key blocks (its hand-over
# beside part 0's last block), 8-byte staging stores and loads; otherwise as call 6.
# (smoke launch under a time limit, float64 checks and bitwise repeats, graph-replay timing in one wave, stamps)
# The same steps as call 6 (the kernel then differed, not the script):
exec bash "$(dirname "$0")/session43_run6.sh"
