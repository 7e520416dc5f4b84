"""Device study for issue 6: the region's time distribution under full load (the default, zero-deadline
calibration) and under the envelope's own duty cycle (calibrate(rounds=1): the GPU idles in the pad, which
at a power cap changes its clock), and the overhead and misses of each deadline over 1,000 enveloped calls.

    PYTHONPATH=src python3 scripts/envelope_duty.py --out DIR
"""
import argparse
import json
import os

import torch

from dhpfa.envelope import TimingEnvelope
from dhpfa.measure.bench import time_ms
from dhpfa.measure.leak import kernels, random_pool, time_enveloped
from envelope_tail import quantiles  # scripts/ is on sys.path when this script runs

SHAPES = ((4, 16, 2048, 128), (16, 16, 1024, 128), (8, 8, 2048, 256), (2, 32, 8192, 64))


def study(shape, calls):
    fn = kernels(peers=False)["dhpfa"]
    pool = random_pool(shape, torch.bfloat16, pool_size=4, seed=3)
    env = TimingEnvelope(policy="count")
    row = dict(shape=shape)
    for key, rounds in (("full-load", 0), ("duty-cycle", 1)):
        d = env.calibrate(fn, key=key, inputs=pool, samples=1000, rounds=rounds)
        row[key] = dict(deadline_us=d, quantiles_us=quantiles(env.last_calibration_us))
    plain_ms = time_ms(fn, pool, warmup=10, reps=300)
    row["plain_us"] = plain_ms * 1000
    for key in ("full-load", "duty-cycle"):
        row[key].update(time_enveloped(env, key, fn, pool, plain_ms, reps=calls))
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--calls", type=int, default=1000)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for shape in SHAPES:
        r = study(shape, a.calls)
        rows.append(r)
        for key in ("full-load", "duty-cycle"):
            x = r[key]
            q = x["quantiles_us"]
            print(f"{shape} {key}: p50 {q['p50']:.1f} p99 {q['p99']:.1f} p99.9 {q['p99.9']:.1f} max {q['max']:.1f}; "
                  f"deadline {x['deadline_us']:.1f}; plain {r['plain_us']:.1f} enveloped {x['envelope_us']:.1f} "
                  f"(+{x['overhead'] * 100:.1f}%), misses {x['misses']}/{x['calls']}", flush=True)
    with open(os.path.join(a.out, "envelope_duty.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
