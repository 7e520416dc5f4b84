"""SHA-256 of the SASS (the instructions' listing, without line tables) of a sample of the Gluon variants (offline, no GPU): run before and after a kernel-source
change that must leave those binaries alone, and diff the two outputs.

    python scripts/sass_hashes.py [--every N] [--match cl,bf16] [--varlen] > hashes.txt
"""
import argparse
import hashlib
import sys

from dhpfa.audit import variant_launch
from dhpfa.audit import compile as _compile
from dhpfa.kernels import variants


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--every", type=int, default=11, help="every N-th Gluon dense variant (1: all)")
    ap.add_argument("--match", default="", help="only variants whose name holds every comma-separated piece")
    ap.add_argument("--varlen", action="store_true", help="also every Hopper varlen variant")
    a = ap.parse_args()
    pieces = [p for p in a.match.split(",") if p]
    dense = [v for v in variants.shipped_variants() if v.kernel in variants.GLUON_KERNELS
             and all(p in v.name for p in pieces)][::a.every]
    chosen = dense + ([v for v in variants.varlen_variants() if v.kernel.startswith(variants.VARLEN_SM90_KERNEL)]
                      if a.varlen else [])
    compiled = [_compile.compile_offline(*variant_launch(v)) for v in chosen]
    for v, text in zip(chosen, _compile.sass_texts([c.cubin for c in compiled])):
        print(v.name, hashlib.sha256(text.encode()).hexdigest(), flush=True)
    print(f"# {len(chosen)} variants", file=sys.stderr)


if __name__ == "__main__":
    main()
