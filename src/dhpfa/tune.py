"""Autotuner: per (GPU, dtype, head dim, causal flag, sequence-length class), the fastest of the shipped
kernel variants, kept in an on-disk cache.

- Only shipped variants are candidates (`variants.candidates`), so whatever the tuner picks has passed
  `dhpfa audit`; a cache entry naming anything else (a stale file after an upgrade) is ignored.
- Timing runs on fresh random inputs of the class's representative shape, never on a caller's tensors:
  the choice depends on public values only (the GPU, shapes, flags), so it cannot carry a secret.
- Without a cache entry the heuristic defaults (`variants.select`) decide. Tuning happens only when asked:
  `dhpfa tune` (command line), `dhpfa.tune.tune(...)`, or DHPFA_AUTOTUNE=1, which tunes a class on its
  first call (that call then takes seconds: every candidate is compiled and timed once).
- The cache is JSON at $DHPFA_CACHE_DIR/tune.json (default ~/.cache/dhpfa/tune.json), written atomically.
"""
import json
import os
import warnings

import torch

from .kernels import dispatch, variants
from .settings import AUTOTUNE_ENV, CACHE_ENV

CLASSES = (512, 1024, 2048, 4096, 8192, 16384)  # sequence-length classes: the grid's lengths
_DTYPE_NAMES = {torch.float16: "fp16", torch.bfloat16: "bf16"}

_cache = None       # the loaded cache: {key: {"variant": name, "ms": {name: ms}}}
_cache_file = None  # the path it was loaded from
_chosen = {}        # per-process memo of choose(): no file access on the call path after the first call
generation = 0      # counts the times _chosen was forgotten (the API's call plans hold the value they saw)
_gpu_names = {}


def seq_class(seq_k: int) -> int:
    """The smallest class >= seq_k (the largest class for longer sequences)."""
    return next((c for c in CLASSES if seq_k <= c), CLASSES[-1])


def gpu_name(device) -> str:
    idx = device.index if device.index is not None else torch.cuda.current_device()
    if idx not in _gpu_names:
        major, minor = torch.cuda.get_device_capability(idx)
        _gpu_names[idx] = f"{torch.cuda.get_device_name(idx)} sm{major}{minor}"
    return _gpu_names[idx]


def cache_key(gpu: str, dtype, head_dim: int, causal: bool, seq_k: int) -> str:
    return f"{gpu}|{_DTYPE_NAMES[dtype]}|d{head_dim}|{'causal' if causal else 'full'}|s{seq_class(seq_k)}"


def cache_path() -> str:
    root = os.environ.get(CACHE_ENV) or os.path.join(os.path.expanduser("~"), ".cache", "dhpfa")
    return os.path.join(root, "tune.json")


def _load() -> dict:
    global _cache, _cache_file
    path = cache_path()
    if _cache is None or _cache_file != path:
        _cache, _cache_file = {}, path
        if os.path.exists(path):
            try:
                with open(path) as f:
                    data = json.load(f)
                if not isinstance(data, dict):
                    raise ValueError("not a JSON object")
                _cache = data
            except (OSError, ValueError) as e:
                warnings.warn(f"dhpfa: ignoring the unreadable tuning cache {path}: {e}")
    return _cache


def _save(cache: dict):
    path = cache_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(cache, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def clear_memory():
    """Forget the loaded cache and the choices made from it (the next call reads the file again)."""
    global _cache, _cache_file
    _cache, _cache_file = None, None
    _forget_choices()


def _forget_choices():
    global generation
    _chosen.clear()
    generation += 1


def candidate_variants(dtype, head_dim: int, causal: bool, sm90: bool):
    return [variants.Variant(k, c, dtype, head_dim, causal) for k, c in variants.candidates(head_dim, sm90, causal)]


def lookup(gpu: str, dtype, head_dim: int, causal: bool, seq_k: int, sm90: bool):
    """The cached variant for this class, or None (no entry, or one that is not a candidate here)."""
    entry = _load().get(cache_key(gpu, dtype, head_dim, causal, seq_k))
    if not isinstance(entry, dict):
        return None
    for v in candidate_variants(dtype, head_dim, causal, sm90):
        if v.name == entry.get("variant"):
            return v
    return None


TIMINGS = ("graph", "eager")


def _time_variant(variant, case, reps, timing="graph"):
    """Median ms of one variant on random inputs of `case` (CUDA events, rotation over input sets).
    timing="graph" (default): calls replayed from a CUDA graph, so the figure is the kernel's own time;
    eager timing on a slow host measures the host's launch path for the short classes instead (session 5:
    D=256 S=512 causal read 135 TFLOPS eager, 344 in graph replay). "eager": bench's loop of calls."""
    from .measure import bench
    sets = bench.make_inputs(case, bench.n_sets_for(case), seed=1234)
    b, h, s, d = case.batch, case.heads, case.seq, case.head_dim
    out = torch.empty((b, s, h, d), device="cuda", dtype=case.torch_dtype)
    lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)

    def fn(q, k, v):
        dispatch.launch(variant, q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), out, lse, d ** -0.5,
                        case.causal, 0)
    try:
        if timing == "graph":
            return bench.graph_ms(fn, sets, replays=max(3, reps // len(sets)))
        return bench.time_ms(fn, sets, warmup=5, reps=reps)
    finally:
        del sets


def tune(dtype, head_dim: int, causal: bool, seq_k: int, device=None, reps=30, time_fn=None, sm90=None,
         timing="graph"):
    """Time every candidate at the class's representative shape (16K tokens, hidden 2048, as in the
    benchmark grid), store the fastest in the cache and return it. timing: "graph" (CUDA-graph replay,
    the kernels' own time) or "eager" (see _time_variant). time_fn(variant, case) -> ms replaces the GPU
    timing (tests)."""
    if timing not in TIMINGS:
        raise ValueError(f"dhpfa.tune: timing must be one of {TIMINGS}, got {timing!r}")
    from .measure.bench import HIDDEN, TOKENS, Case
    if device is None:
        device = torch.device("cuda", torch.cuda.current_device())
    gpu = gpu_name(device) if time_fn is None or device.type == "cuda" else str(device)
    if sm90 is None:
        sm90 = torch.cuda.get_device_capability(device) == (9, 0)
    s = seq_class(seq_k)
    case = Case(max(1, TOKENS // s), max(1, HIDDEN // head_dim), s, head_dim, causal, _DTYPE_NAMES[dtype])
    timer = time_fn or (lambda v, c: _time_variant(v, c, reps, timing))
    times = {}
    for v in candidate_variants(dtype, head_dim, causal, sm90):
        try:
            times[v.name] = float(timer(v, case))
        except Exception as e:  # a candidate that cannot run here is skipped, and said
            warnings.warn(f"dhpfa.tune: {v.name} failed on {case.label()}: {type(e).__name__}: {e}")
    if not times:
        raise RuntimeError(f"dhpfa.tune: no candidate ran for {case.label()}")
    best = min(times, key=times.get)
    _forget_choices()
    cache = _load()
    cache[cache_key(gpu, dtype, head_dim, causal, seq_k)] = {"variant": best, "ms": times, "case": case.label(),
                                                            "timing": timing}
    _save(cache)
    return next(v for v in candidate_variants(dtype, head_dim, causal, sm90) if v.name == best)


def choose(dtype, head_dim: int, causal: bool, seq_k: int, device, sm90: bool, programs=None, seq_q=None):
    """The variant for a GPU call: on sm_90 a grid of few programs (variants.few_programs_variant;
    programs = B * H * ceil(Sq / variants.FEW_PROGRAMS_ROWS)) takes its variant, and so does a call of one or two
    query tiles per head (variants.few_rows_variant; seq_q: queries per head) (the tuner times 16K-token shapes,
    never such calls), and so does a D=64 grid where the long-sequence build's waves and the short tiles' compare the
    other way than select's lengths assume (variants.long_tiles_fill); else the cached choice, else (DHPFA_AUTOTUNE=1)
    tune now, else the heuristic default.
    Every input to the decision is public."""
    sms = dispatch.sm_count(device) if sm90 and programs is not None else None
    if sms is not None:
        v = variants.few_programs_variant(dtype, head_dim, causal, seq_k, programs, sms, seq_q)
        if v is not None:
            return v
    heads = programs // -(-seq_q // variants.FEW_PROGRAMS_ROWS) if seq_q is not None and programs is not None else None
    if sm90 and seq_q is not None:
        v = variants.few_rows_variant(dtype, head_dim, causal, seq_q, seq_k, heads, sms)
        if v is not None:
            return v
    if sms is not None and heads is not None:  # the long-sequence build's last wave (session 45)
        v = variants.long_tiles_fill(dtype, head_dim, causal, seq_q, seq_k, heads, sms)
        if v is not None:
            return v
    gpu = gpu_name(device)
    memo = (gpu, os.environ.get(CACHE_ENV), dtype, head_dim, causal, sm90, seq_k)  # no path work per call
    v = _chosen.get(memo)
    if v is None:
        v = lookup(gpu, dtype, head_dim, causal, seq_k, sm90)
        if v is None and os.environ.get(AUTOTUNE_ENV, "0") == "1":
            v = tune(dtype, head_dim, causal, seq_k, device=device, sm90=sm90)
        v = v or variants.select(dtype, head_dim, causal, False, seq_k=seq_k, sm90=sm90)
        _chosen[memo] = v
    return v


def main(args):
    """`dhpfa tune`: tune the benchmark grid's classes and print the choices."""
    dtypes = [{"bf16": torch.bfloat16, "fp16": torch.float16}[x] for x in args.dtypes.split(",")]
    dims = [int(x) for x in args.head_dims.split(",")]
    seqs = [int(x) for x in args.seqs.split(",")]
    gpu = gpu_name(torch.device("cuda", torch.cuda.current_device()))
    sm90 = torch.cuda.get_device_capability() == (9, 0)
    rows = []
    for dt in dtypes:
        for d in dims:
            for s in seqs:
                for causal in (False, True):
                    v = tune(dt, d, causal, s, reps=args.reps, sm90=sm90, timing=args.timing)
                    entry = _load()[cache_key(gpu, dt, d, causal, s)]
                    default = variants.select(dt, d, causal, False, seq_k=s, sm90=sm90).name
                    gain = entry["ms"].get(default, float("nan")) / entry["ms"][v.name]
                    rows.append(dict(key=f"{_DTYPE_NAMES[dt]} d{d} s{s} {'causal' if causal else 'full'}",
                                     choice=v.name, default=default, speedup_vs_default=gain, ms=entry["ms"]))
                    print(f"{rows[-1]['key']:<24} {v.name:<62} x{gain:.3f} vs default", flush=True)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "tune.json"), "w") as f:
            json.dump(rows, f, indent=1)
    print(f"cache: {cache_path()}")
    return 0
