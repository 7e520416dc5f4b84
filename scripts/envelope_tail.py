"""Device study for issue 6: where the envelope's overhead comes from, and what a lower calibration
quantile costs in misses. For each shape: the default calibration's pipelined stamp-to-pad times on random
inputs, then three more batches under the same load (quantiles, medians along the sequence: do slow
stretches recur?), the GPU's clocks and throttle reasons, then median enveloped time and misses for
several (quantile, margin) set from the first batch.

    PYTHONPATH=src python3 scripts/envelope_tail.py --out DIR
"""
import argparse
import json
import os
import subprocess

import torch

from dhpfa.envelope import TimingEnvelope, deadline_from_samples
from dhpfa.measure.bench import time_ms
from dhpfa.measure.leak import kernels, random_pool, time_enveloped

SETTINGS = ((0.999, 1.03), (0.999, 1.0), (0.995, 1.01), (0.99, 1.01), (0.9, 1.02))


def smi():
    q = "clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active"
    try:
        return subprocess.run(["nvidia-smi", f"--query-gpu={q}", "--format=csv,noheader"], capture_output=True,
                              text=True, timeout=20).stdout.strip()
    except Exception as e:  # informative only
        return f"nvidia-smi failed: {e}"


def quantiles(xs):
    """Quantiles as the envelope's calibration takes them (deadline_from_samples with margin 1)."""
    return {"p0": min(xs)} | {f"p{q * 100:g}": deadline_from_samples(xs, q, 1.0) for q in (0.5, 0.9, 0.99, 0.995,
                                                                                           0.999)} | {"max": max(xs)}


def median(xs):
    return sorted(xs)[len(xs) // 2]


def batch_summary(times, step):
    """Quantiles, calls slower than 105% of the median, and the median of every `step` calls in order."""
    slow_bound = 1.05 * median(times)
    return dict(quantiles_us=quantiles(times), slow_over_105pct=sum(t > slow_bound for t in times),
                medians_per_step=[round(median(times[i:i + step]), 1) for i in range(0, len(times), step)])


def study(shape, samples, calls, batches=3):
    fn = kernels(peers=False)["dhpfa"]
    pool = random_pool(shape, torch.bfloat16, pool_size=4, seed=3)
    env = TimingEnvelope(policy="count")
    before = smi()
    env.calibrate(fn, key="cal", inputs=pool, samples=samples)  # the default calibration (1 s warm-up)
    times = env.last_calibration_us
    runs = [times]
    for i in range(batches):  # later batches of the same steady load: do slow stretches recur?
        env.calibrate(fn, key=f"b{i}", inputs=pool, samples=samples, warmup=0, warmup_ms=0)
        runs.append(env.last_calibration_us)
    after = smi()
    step = max(1, samples // 40)
    plain_ms = time_ms(fn, pool, warmup=10, reps=calls)
    row = dict(shape=shape, samples=samples, smi_before=before, smi_after=after, plain_us=plain_ms * 1000,
               batches=[batch_summary(r, step) for r in runs],
               settings=[])
    for q, margin in SETTINGS:
        key = (q, margin)
        env.deadlines_us[key] = deadline_from_samples(times, q, margin)
        row["settings"].append(dict(quantile=q, margin=margin, deadline_us=env.deadlines_us[key])
                               | time_enveloped(env, key, fn, pool, plain_ms, reps=calls))
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for shape, samples, calls in (((4, 16, 2048, 128), 4000, 1000), ((16, 16, 1024, 128), 4000, 1000),
                                  ((8, 8, 2048, 256), 2000, 600), ((2, 32, 8192, 64), 1000, 300),
                                  ((1, 16, 16384, 128), 1000, 300)):
        r = study(shape, samples, calls)
        rows.append(r)
        print(f"{shape}: plain {r['plain_us']:.1f} us; smi {r['smi_before']} -> {r['smi_after']}")
        for i, bt in enumerate(r["batches"]):
            print(f"   batch {i}: " + " ".join(f"{k}={v:.1f}" for k, v in bt["quantiles_us"].items())
                  + f"; >105% of median: {bt['slow_over_105pct']}; medians per {samples // 40}: "
                  + " ".join(f"{m:.0f}" for m in bt["medians_per_step"]), flush=True)
        for st in r["settings"]:
            print(f"   p{st['quantile'] * 100:g} x {st['margin']}: deadline {st['deadline_us']:.1f} us, enveloped "
                  f"{st['envelope_us']:.1f} us, overhead {st['overhead'] * 100:.1f}%, misses {st['misses']}/"
                  f"{st['calls']}", flush=True)
        with open(os.path.join(args.out, "envelope_tail.json"), "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
