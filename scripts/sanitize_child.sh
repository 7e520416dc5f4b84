#!/bin/bash
# compute-sanitizer tools (default memcheck and synccheck) over the sanitizer child (dhpfa.measure.sanitize),
# instrumenting dhpfa's kernels only. Used by the session scripts.   TOOLS=... SAN_LIMIT=... SAN_TAIL=...
# SAN_PART=grouped_paged: that part of the child alone (dhpfa.measure.sanitize.grouped_paged).
for tool in ${TOOLS:-memcheck synccheck}; do
  echo "== $tool"
  timeout ${SAN_LIMIT:-150} compute-sanitizer --tool $tool --kernel-name kns=attn_fwd \
    python3 -m dhpfa.measure.sanitize child ${SAN_PART} 2>&1 | tail -${SAN_TAIL:-2}
  # a run cut off by the limit prints no error summary: say so (session 32's cold-cache run read as silence)
  [ "${PIPESTATUS[0]}" = 124 ] && echo "== $tool: TIMED OUT after ${SAN_LIMIT:-150} s (no result; compile first: scripts/precompile.py)"
done
