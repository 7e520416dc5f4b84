"""Warp-stall samples per SASS instruction from `ncu --page source --csv --print-source sass` (session 10 run 5):
the share of samples by kind of instruction (mbarrier waits, GEMM waits, bar.syncs, named-barrier turns, the
producer warpgroup's idle warps at the kernel's end, ...), and the instructions with the most samples.

    python3 scripts/ncu_source_stalls.py FILE.csv[.gz] [--top 25] [--windows 100]
"""
import argparse
import collections
import csv
import gzip
import io
import re


def read(path):
    raw = gzip.open(path) if path.endswith(".gz") else open(path, "rb")
    rows = list(csv.reader(io.TextIOWrapper(raw, encoding="utf-8")))
    start = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    hdr = rows[start]
    col = {name: hdr.index(name) for name in ("Source", "Warp Stall Sampling (All Samples)", "Instructions Executed")}
    return [(r[col["Source"]].strip(), float(r[col["Warp Stall Sampling (All Samples)"]] or 0),
             float(r[col["Instructions Executed"]] or 0)) for r in rows[start + 1:]]


def kind(src, executed, prev):
    op = re.sub(r"^@!?U?P\w+\s+", "", src).split(" ")[0]
    if op == "NOP" and executed < 1000:
        return "idle warps at the end (producer warpgroup)"
    if op == "BRA" and "TRYWAIT" in prev or op.startswith("SYNCS.PHASECHK"):
        return "mbarrier wait"
    if op.startswith("WARPGROUP.DEPBAR"):
        return "GEMM wait"
    if op.startswith("BAR.SYNC"):
        bid = src.split()[1].rstrip(",")
        return "named-barrier turn" if bid in ("0xd", "0xe", "0xf") else f"bar.sync {bid}"
    if op.startswith(("HGMMA", "MUFU")):
        return op.split(".")[0]
    return "other"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--windows", type=int, default=0, help="also print samples per window of this many instructions")
    a = ap.parse_args()
    rows = read(a.csv)
    total = sum(w for _, w, _ in rows)
    kinds, prev = collections.Counter(), ""
    for src, w, ex in rows:
        kinds[kind(src, ex, prev)] += w
        prev = src
    print(f"{total:.0f} samples over {len(rows)} instructions")
    for k, w in kinds.most_common():
        print(f"{100 * w / total:5.1f}%  {k}")
    print("top instructions:")
    for i in sorted(range(len(rows)), key=lambda i: -rows[i][1])[:a.top]:
        src, w, ex = rows[i]
        print(f"{i:5d} {100 * w / total:5.1f}% executed {ex:>9.0f}  {src[:90]}")
    if a.windows:
        for s in range(0, len(rows), a.windows):
            seg = rows[s:s + a.windows]
            w = sum(x[1] for x in seg)
            if w / total > 0.004:
                executed = sum(x[2] for x in seg) / 1e3
                print(f"{s:5d}-{s + a.windows:5d} {100 * w / total:5.1f}%  executed {executed:8.0f}K")


if __name__ == "__main__":
    main()
