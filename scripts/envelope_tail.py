"""Device study for issue 6: where the envelope's overhead comes from at long shapes, and what a lower
calibration quantile costs in misses. For each shape: 4,000 pipelined stamp-to-pad times of the region on
random inputs (their quantiles, and where the slow ones fall in the sequence), the GPU's clocks and
throttle reasons, then median enveloped time and misses over 400 calls for several (quantile, margin).

    PYTHONPATH=src python3 scripts/envelope_tail.py --out DIR
"""
import argparse
import json
import os
import subprocess

import torch

from dhpfa.envelope import TimingEnvelope, deadline_from_samples
from dhpfa.measure.bench import time_ms
from dhpfa.measure.leak import kernels, random_pool

SETTINGS = ((0.999, 1.03), (0.999, 1.0), (0.995, 1.01), (0.99, 1.01), (0.9, 1.02))


def smi():
    q = "clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active"
    try:
        return subprocess.run(["nvidia-smi", f"--query-gpu={q}", "--format=csv,noheader"], capture_output=True,
                              text=True, timeout=20).stdout.strip()
    except Exception as e:  # informative only
        return f"nvidia-smi failed: {e}"


def quantiles(xs):
    s = sorted(xs)
    return {f"p{q * 100:g}": s[min(len(s) - 1, int(q * len(s)))] for q in (0.0, 0.5, 0.9, 0.99, 0.995, 0.999)} | \
        {"max": s[-1]}


def study(shape, samples=4000, calls=400):
    fn = kernels(peers=False)["dhpfa"]
    pool = random_pool(shape, torch.bfloat16, pool_size=4, seed=3)
    env = TimingEnvelope(policy="count")
    before = smi()
    env.calibrate(fn, key="cal", inputs=pool, samples=samples)
    times = (env._elapsed[:samples].double() / 1000.0).tolist()
    after = smi()
    med = sorted(times)[len(times) // 2]
    slow = [i for i, t in enumerate(times) if t > 1.05 * med]
    plain_ms = time_ms(fn, pool, warmup=10, reps=calls)
    row = dict(shape=shape, quantiles_us=quantiles(times), slow_over_105pct=len(slow), slow_indices=slow[:60],
               first_100_median=sorted(times[:100])[50], last_100_median=sorted(times[-100:])[50],
               smi_before=before, smi_after=after, plain_us=plain_ms * 1000, settings=[])
    for q, margin in SETTINGS:
        key = (q, margin)
        env.deadlines_us[key] = deadline_from_samples(times, q, margin)

        def fn_env(a, b, c, key=key):
            with env(key):
                return fn(a, b, c)
        m0 = env.misses
        env_ms = time_ms(fn_env, pool, warmup=10, reps=calls)
        row["settings"].append(dict(quantile=q, margin=margin, deadline_us=env.deadlines_us[key],
                                    envelope_us=env_ms * 1000, overhead=env_ms / plain_ms - 1,
                                    misses=env.misses - m0, calls=calls + 14))
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for shape in ((4, 16, 2048, 128), (16, 16, 1024, 128), (2, 32, 8192, 64), (1, 16, 16384, 128)):
        r = study(shape)
        rows.append(r)
        qs = r["quantiles_us"]
        print(f"{shape}: plain {r['plain_us']:.1f} us; " + " ".join(f"{k}={v:.1f}" for k, v in qs.items())
              + f"; >105% of median: {r['slow_over_105pct']} at {r['slow_indices'][:20]}; first/last-100 median "
              f"{r['first_100_median']:.1f}/{r['last_100_median']:.1f}; smi {r['smi_before']} -> {r['smi_after']}",
              flush=True)
        for st in r["settings"]:
            print(f"   p{st['quantile'] * 100:g} x {st['margin']}: deadline {st['deadline_us']:.1f} us, enveloped "
                  f"{st['envelope_us']:.1f} us, overhead {st['overhead'] * 100:.1f}%, misses {st['misses']}/"
                  f"{st['calls']}", flush=True)
        with open(os.path.join(args.out, "envelope_tail.json"), "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
