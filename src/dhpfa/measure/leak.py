"""dudect-style timing-leak test (protocol in ../shared/protocols.md).

One set of q/k/v buffers serves every sample: before each sample, that sample's input is copied into
them, so memory placement is the same for all classes. Each sample's class is drawn at random
(interleaved, never in blocks); one call is timed per sample with CUDA events. Each class is compared
with fresh random inputs drawn from a pool by Welch's t; |t| > 4.5 is a leak. The fixed-random class is
the calibration: it must show no leak, or the measurement itself is not trustworthy.
"""
import json
import os
import random

import torch

from . import stats

CLASSES = ("fixed-random", "zeros", "ones", "spiky", "sink")
PRIME = 8  # untimed calls that put the host ahead of the GPU before pipelined timing


def qkv_shapes(shape):
    """(q, k, v) shapes in (B, H, S, D) layout of a test shape: (B, H, S, D), or (B, H, Sq, D, Sk, H_kv) for queries and
    keys of different lengths and fewer key/value heads (grouped-query attention; one query per sequence: decode)."""
    if len(shape) == 4:
        return shape, shape, shape
    if len(shape) != 6:
        raise ValueError(f"shape: expected B,H,S,D or B,H,Sq,D,Sk,H_kv, got {shape}")
    b, h, sq, d, sk, hk = shape
    return (b, h, sq, d), (b, hk, sk, d), (b, hk, sk, d)


def is_gqa(shape) -> bool:
    q, k, _ = qkv_shapes(shape)
    return q[1] != k[1]


def empty_qkv(shape, dtype, cache_layout=False, device="cuda"):
    """The one set of q, k, v buffers, (B, H, S, D) views; cache_layout (session 67, the KV-cache route): k and v views
    of (B, S, H_kv, D) memory, so that their transposes are the contiguous caches flash_attn_with_kvcache reads."""
    q, k, v = qkv_shapes(shape)
    if not cache_layout:
        return tuple(torch.empty(sh, device=device, dtype=dtype) for sh in (q, k, v))
    return (torch.empty(q, device=device, dtype=dtype),) + tuple(
        torch.empty(sh[0], sh[2], sh[1], sh[3], device=device, dtype=dtype).permute(0, 2, 1, 3) for sh in (k, v))


KVCACHE = "dhpfa_kvcache"  # (session 67) the kernel name of flash_attn_with_kvcache's route in leak / counters runs


def check_kvcache_shape(shape, peers=False):
    """A --kvcache run (leak, counters): dhpfa alone (not with --peers) on a shape (B, H, 1, D, S_k, H_kv), one query a
    sequence; else ValueError naming the argument."""
    if peers:
        raise ValueError("--kvcache: runs dhpfa's flash_attn_with_kvcache alone; not with --peers")
    if len(shape) != 6 or shape[2] != 1:
        raise ValueError(f"--shape: --kvcache times decode steps: expected B,H,1,D,Sk,H_kv (one query a sequence), "
                         f"got {','.join(map(str, shape))}")


def kvcache_lengths(batch: int, seq_k: int):
    """The cache lengths of a --kvcache run (public, the same for every class): seq_k, then 131 fewer a sequence (at
    least 1), so the sequences' parts differ."""
    return [max(1, seq_k - 131 * i) for i in range(batch)]


def kvcache_fn(shape, causal=False):
    """fn(q, k, v) on empty_qkv(cache_layout=True)'s buffers: flash_attn_with_kvcache on q (B, 1, H, D) and the caches,
    with kvcache_lengths as a tensor (made once)."""
    import dhpfa
    check_kvcache_shape(shape)
    lens = torch.tensor(kvcache_lengths(shape[0], shape[4]), dtype=torch.int32, device="cuda")
    return lambda q, k, v: dhpfa.flash_attn_with_kvcache(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                         cache_seqlens=lens, causal=causal)


def random_pool(shape, dtype, pool_size=8, seed=0, generator=None):
    """pool_size independent random (q, k, v): the 'random' class (the first draws of `seed`)."""
    g = generator or torch.Generator(device="cuda").manual_seed(seed)
    return [tuple(torch.randn(sh, device="cuda", dtype=dtype, generator=g) for sh in qkv_shapes(shape))
            for _ in range(pool_size)]


def make_class_inputs(shape, dtype, pool_size=8, seed=0):
    """{class: [ (q, k, v), ... ]}; 'random' holds the pool of fresh random inputs."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    shapes = qkv_shapes(shape)
    d = shapes[0][3]

    def rnd(i):
        return torch.randn(shapes[i], device="cuda", dtype=dtype, generator=g)

    inputs = {"random": random_pool(shape, dtype, pool_size, generator=g)}
    inputs["fixed-random"] = [(rnd(0), rnd(1), rnd(2))]
    inputs["zeros"] = [tuple(torch.zeros(sh, device="cuda", dtype=dtype) for sh in shapes)]
    inputs["ones"] = [tuple(torch.ones(sh, device="cuda", dtype=dtype) for sh in shapes)]
    inputs["spiky"] = [(rnd(0) * 8, rnd(1) * 8, rnd(2) * 8)]
    # attention sink: every query shares a direction u; key 0 is aligned with it.
    u = torch.randn(d, device="cuda", generator=g)
    u = (u / u.norm() * d ** 0.5).to(dtype)
    q = (rnd(0).float() * 0.5 + u.float()).to(dtype)
    k = rnd(1)
    k[:, :, 0, :] = 4 * u
    inputs["sink"] = [(q, k, rnd(2))]
    return inputs


def run_leak(fn, shape, dtype=torch.bfloat16, samples=2000, classes=CLASSES, seed=0, warmup=200, pipelined=False,
             cache_layout=False):
    """Time fn(q, k, v) with interleaved classes. Returns {class: {t, median_us, n, ...}}.

    pipelined=False: each sample waits for the previous one (an isolated call). pipelined=True: samples are
    queued back to back and read once per batch, as when the host runs ahead of the GPU; each sample is
    still one call between its own pair of events, after its own input copy. cache_layout: empty_qkv's (the KV-cache
    route's buffers).
    """
    inputs = make_class_inputs(shape, dtype, seed=seed)
    bufs = empty_qkv(shape, dtype, cache_layout)
    rng = random.Random(seed)
    labels = ["random"] * samples + [c for c in classes for _ in range(samples)]
    rng.shuffle(labels)
    for i in range(warmup):  # clocks up, caches and allocator warm
        for dst, src in zip(bufs, inputs["random"][i % len(inputs["random"])]):
            dst.copy_(src)
        fn(*bufs)
    torch.cuda.synchronize()
    times = {c: [] for c in ("random",) + tuple(classes)}

    def enqueue(lab, timed=True):
        pool = inputs[lab]
        src = pool[rng.randrange(len(pool))]
        for dst, s in zip(bufs, src):
            dst.copy_(s)
        if not timed:
            fn(*bufs)
            return None
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(*bufs)
        end.record()
        return start, end

    def collect(batch):
        batch[-1][1][1].synchronize()
        for lab, (start, end) in batch:
            times[lab].append(start.elapsed_time(end) * 1000.0)  # microseconds

    if not pipelined:
        for lab in labels:
            collect([(lab, enqueue(lab))])
    else:
        # Keep the queue full: untimed priming calls, then read batch j-1 only after batch j is queued, so
        # no timed call starts on an idle GPU waiting for the host.
        for i in range(PRIME):
            enqueue("random", timed=False)
        pending = None
        for b0 in range(0, len(labels), 128):
            batch = [(lab, enqueue(lab)) for lab in labels[b0:b0 + 128]]
            if pending:
                collect(pending)
            pending = batch
        collect(pending)
    ref = times["random"]

    def spread(xs):  # the 10th and 90th percentiles (a bimodal class shows there, not in the median alone)
        s = sorted(xs)
        return [s[int(len(s) * 0.1)], s[min(len(s) - 1, int(len(s) * 0.9))]]
    out = {"random": {"n": len(ref), "median_us": stats.median(ref), "p10_p90_us": spread(ref)}}
    for c in classes:
        t = stats.welch_t(times[c], ref)
        out[c] = {"t": t, "leak": stats.is_leak(t), "n": len(times[c]), "median_us": stats.median(times[c]),
                  "random_median_us": stats.median(ref), "p10_p90_us": spread(times[c])}
    out["calibration_ok"] = not out["fixed-random"]["leak"] if "fixed-random" in out else None
    out["pipelined"] = pipelined
    out["calls"] = warmup + (PRIME if pipelined else 0) + len(labels)
    return out


def kernels(peers: bool, causal: bool = False, gqa: bool = False):
    from .bench import peer_kernels
    ks = peer_kernels(gqa=gqa)
    names = ["dhpfa"] + ([n for n in ks if n.startswith("sdpa_")] if peers else [])
    return {n: (lambda f: (lambda q, k, v: f(q, k, v, causal)))(ks[n]) for n in names}


def format_table(results, classes=CLASSES) -> str:
    lines = [f"| kernel | {' | '.join(classes)} | medians (us): random / " + " / ".join(classes) + " |",
             "|---|" + "---|" * (len(classes) + 1)]
    for name, r in results.items():
        if "error" in r:
            lines.append(f"| {name} | " + " | ".join("n/a" for _ in classes) + f" | {r['error']} |")
            continue
        cells = []
        for c in classes:
            t = r[c]["t"]
            mark = " **LEAK**" if r[c]["leak"] else ""
            cells.append(f"{t:+.1f}{mark}")
        meds = " / ".join(f"{r[c]['median_us']:.1f}" for c in ("random",) + tuple(classes))
        note = "" if r["calibration_ok"] else " (calibration FAILED: t values not trustworthy)"
        lines.append(f"| {name} | {' | '.join(cells)} | {meds}{note} |")
    return "\n".join(lines)


def main(args):
    shape = tuple(int(x) for x in args.shape.split(","))
    samples = min(int(args.samples), 100_000)
    causal = bool(getattr(args, "causal", False))
    if causal and args.envelope:
        raise ValueError("--causal: not with --envelope (the envelope study times full attention)")
    os.makedirs(args.out, exist_ok=True)
    if args.envelope:
        r = run_envelope_leak(shape, samples=samples, pipelined=not args.isolated)
        with open(os.path.join(args.out, "leak-envelope.json"), "w") as f:
            json.dump(r, f, indent=1, default=str)
        print(format_envelope(r))
        return 0
    kv = bool(getattr(args, "kvcache", False))
    if kv:
        check_kvcache_shape(shape, args.peers)
    results = {}
    fns = {KVCACHE: kvcache_fn(shape, causal)} if kv else kernels(args.peers, causal, gqa=is_gqa(shape))
    for name, fn in fns.items():
        try:
            results[name] = run_leak(fn, shape, samples=samples, cache_layout=kv)
        except Exception as e:
            results[name] = {"error": f"{type(e).__name__}: {e}"}
        r = results[name]
        if "error" not in r and not r["calibration_ok"]:
            print(f"{name}: calibration class (fixed-random) shows |t| > 4.5: the measurement is not "
                  "trustworthy on this machine now; the other classes are reported but not meaningful.")
    with open(os.path.join(args.out, "leak.json"), "w") as f:
        json.dump(dict(shape=shape, causal=causal, samples_per_class=samples, results=results), f, indent=1)
    dims = "(B,H,S,D)" if len(shape) == 4 else "(B,H,Sq,D,Sk,H_kv)"
    print(f"dudect-style Welch t, {dims}={shape} bf16{' causal' if causal else ''}"
          f"{' flash_attn_with_kvcache, lengths ' + str(kvcache_lengths(shape[0], shape[4])) if kv else ''}, "
          f"{samples} samples per class, "
          "|t| > 4.5 = leak")
    print(format_table(results))
    return 0


# ---- with the timing envelope ------------------------------------------------------------------------
def run_envelope_leak(shape, samples=10_000, plain_samples=2000, quantile=0.999, margin=1.03, pipelined=True):
    """The leak test on dhpfa with and without the envelope, plus overhead and misses (default calibration,
    pipelined: calls queued back to back)."""
    from ..envelope import TimingEnvelope
    fn = kernels(peers=False, gqa=is_gqa(shape))["dhpfa"]
    pool = random_pool(shape, torch.bfloat16, seed=7)
    env = TimingEnvelope(policy="count")
    mode = "pipelined" if pipelined else "isolated"
    deadline = env.calibrate(fn, key=shape, inputs=pool, samples=1000, quantile=quantile, margin=margin, mode=mode)

    def fn_env(q, k, v):
        with env(shape):
            return fn(q, k, v)
    plain = run_leak(fn, shape, samples=plain_samples, pipelined=pipelined)
    misses_before = env.misses
    enveloped = run_leak(fn_env, shape, samples=samples, pipelined=pipelined)
    misses = env.misses - misses_before
    calls = enveloped["calls"]
    return dict(shape=shape, deadline_us=deadline, quantile=quantile, margin=margin, mode=mode, plain=plain,
                enveloped=enveloped, misses=misses, calls=calls, miss_rate=misses / calls,
                overhead=enveloped["random"]["median_us"] / plain["random"]["median_us"] - 1)


def time_enveloped(env, key, fn, pool, plain_ms, reps, warmup=10):
    """Median time of fn(*pool[i]) inside `env(key)`, calls queued back to back (bench.time_ms), its overhead
    over `plain_ms`, and the deadline misses the device counted in those calls."""
    from .bench import time_ms

    def fn_env(q, k, v):
        with env(key):
            return fn(q, k, v)
    m0 = env.misses
    env_ms = time_ms(fn_env, pool, warmup=warmup, reps=reps)
    return dict(envelope_us=env_ms * 1000, overhead=env_ms / plain_ms - 1, misses=env.misses - m0,
                calls=warmup + min(warmup, 4) + reps)  # time_ms's warm-up, untimed priming and timed calls


def envelope_overhead(shapes, quantile=0.999, margin=1.03):
    """Back-to-back (pipelined) median time with and without the envelope, default calibration."""
    from ..envelope import TimingEnvelope
    from .bench import time_ms
    fn = kernels(peers=False)["dhpfa"]
    rows = []
    for shape in shapes:
        pool = random_pool(shape, torch.bfloat16, pool_size=4, seed=3)
        env = TimingEnvelope(policy="count")
        deadline = env.calibrate(fn, key=shape, inputs=pool, samples=1000, quantile=quantile, margin=margin)
        plain_ms = time_ms(fn, pool, warmup=10, reps=100)
        rows.append(dict(shape=shape, deadline_us=deadline, plain_us=plain_ms * 1000)
                    | time_enveloped(env, shape, fn, pool, plain_ms, reps=100))
    return rows


def format_envelope(r) -> str:
    lines = [f"shape {tuple(r['shape'])}, {r.get('mode', 'isolated')} calls: deadline {r['deadline_us']:.1f} us "
             f"(p{r['quantile'] * 100:g} x {r['margin']}), misses {r['misses']} / {r['calls']} calls, "
             f"overhead {r['overhead'] * 100:.1f}%",
             format_table({f"dhpfa ({r['plain']['random']['n']}/class)": r["plain"],
                           f"dhpfa + envelope ({r['enveloped']['random']['n']}/class)": r["enveloped"]})]
    return "\n".join(lines)
