"""Device batch: sanitizers, counters (dhpfa + peers) and envelope overhead; JSON to --out, tables printed.

    PYTHONPATH=src python3 scripts/device_checks.py --out DIR
"""
import argparse
import json
import os
import tempfile
import time

from dhpfa.measure import counters, leak, sanitize


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    res = {}
    t = time.time()
    res["envelope_overhead"] = leak.envelope_overhead([(4, 16, 2048, 128), (16, 16, 1024, 128), (1, 16, 16384, 128),
                                                       (2, 32, 8192, 64)])
    print(f"envelope overhead ({time.time() - t:.0f} s)")
    for r in res["envelope_overhead"]:
        print(f"  {r['shape']}: plain {r['plain_us']:.1f} us, enveloped {r['envelope_us']:.1f} us, "
              f"deadline {r['deadline_us']:.1f} us, overhead {r['overhead'] * 100:.1f}%, misses {r['misses']}")
    t = time.time()
    scratch = tempfile.mkdtemp()
    res["counters"] = {n: counters.run_counters(n, (2, 16, 2048, 128), scratch) for n in ("dhpfa", "sdpa_flash",
                                                                                          "sdpa_cudnn")}
    print(f"counters ({time.time() - t:.0f} s)")
    print(counters.format_table(res["counters"]))
    with open(os.path.join(args.out, "checks.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)
    t = time.time()
    res["sanitizers"] = sanitize.run_sanitizers()
    print(f"sanitizers ({time.time() - t:.0f} s)")
    for tool, v in res["sanitizers"].items():
        print(f"  {tool}: errors={v.get('errors')} ran={v.get('ran')} clean={v.get('clean')}")
        if v.get("head"):
            print("    " + v["head"][:1500].replace("\n", "\n    "))
    with open(os.path.join(args.out, "checks.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)


if __name__ == "__main__":
    main()
