"""Timing envelope: pad a GPU region on one stream to a fixed deadline measured on the device.

The tensor-core datapath itself runs faster on some operands (zeros, ones) with identical instructions
(../shared/protocols.md), so no kernel can make its own time data-independent. What an observer of the
stream sees can be: a tiny kernel stamps %globaltimer before the region; after it, one thread spins until
stamp + deadline. The region's end time then depends only on the deadline, unless the region overruns it.
A miss leaks, so it is never silent: every miss is counted on the device (`misses`), and `check()` warns
or raises by policy.

    env = TimingEnvelope(policy="raise")
    env.calibrate(lambda: attn(q, k, v), key=q.shape)      # deadline = p99.9 of the region x margin
    with env(q.shape):
        out = attn(q, k, v)
    env.check()

Works eagerly and inside CUDA-graph capture (the kernels and their arguments are captured); costs
nothing when not used. Nesting one envelope inside itself is not supported (one stamp slot).
"""
import math
import warnings

import torch
import triton
import triton.language as tl


PRIME_CALLS = 8
WARMUP_MS = 1000.0
CALIBRATION_SLOTS = 4096


class DeadlineMissed(RuntimeError):
    pass


class DeadlineMissedWarning(RuntimeWarning):
    pass


@triton.jit
def _globaltimer():
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64, is_pure=False,
                                     pack=1)


@triton.jit
def envelope_stamp(start_ptr):
    tl.store(start_ptr, _globaltimer())


@triton.jit(do_not_specialize=["slot", "deadline_ns"])
def envelope_pad(start_ptr, miss_ptr, elapsed_ptr, slot, deadline_ns):
    """Spin until stamp + deadline. The loop depends on time only (the stamp is a time, not data).

    Records the stamp-to-here time in elapsed_ptr[slot]: calibration reads exactly what the deadline
    has to cover (launch gaps inside the region included). Integer arguments are not specialised, so no
    deadline value can trigger a compilation inside a region.
    """
    start = tl.load(start_ptr)
    now = _globaltimer()
    tl.store(elapsed_ptr + slot, now - start)
    target = start + deadline_ns
    tl.atomic_add(miss_ptr, (now > target).to(tl.int32))
    while now < target:
        now = _globaltimer()


def audited_kernels():
    """The envelope's kernels for `dhpfa audit`: (name, fn, args, kwargs, public_params)."""
    start = torch.empty(1, dtype=torch.int64)
    miss = torch.empty(1, dtype=torch.int32)
    elapsed = torch.empty(4, dtype=torch.int64)
    return [("envelope_stamp", envelope_stamp, (start,), dict(num_warps=1), ()),
            # the start stamp is a time written by envelope_stamp, public by construction
            ("envelope_pad", envelope_pad, (start, miss, elapsed, 0, 1000), dict(num_warps=1), ("start_ptr",))]


def deadline_from_samples(times_us, quantile=0.999, margin=1.03):
    """The calibrated deadline: the `quantile` of the region's times on random inputs, times `margin`."""
    if not times_us:
        raise ValueError("deadline_from_samples: no samples")
    if not (0 < quantile <= 1) or margin < 1:
        raise ValueError(f"quantile must be in (0, 1] and margin >= 1, got {quantile}, {margin}")
    s = sorted(times_us)
    idx = min(len(s) - 1, max(0, math.ceil(quantile * len(s)) - 1))
    return s[idx] * margin


def _warm_up(region, args, calls, ms):
    """Run region(*args[i]) at least `calls` times and until `ms` of GPU time have passed."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    i, batch = 0, max(1, calls)
    while True:
        for _ in range(batch):
            region(*args[i % len(args)])
            i += 1
        end.record()
        end.synchronize()
        elapsed = start.elapsed_time(end)
        if elapsed >= ms:
            return i
        batch = max(1, min(4 * i, int(i * (ms - elapsed) / max(elapsed, 1e-3)) + 1))  # calls left at this pace


class _Region:
    def __init__(self, env, deadline_ns, slot=0, apply_policy=True):
        self.env, self.deadline_ns, self.slot = env, deadline_ns, slot
        self.apply_policy = apply_policy

    def __enter__(self):
        envelope_stamp[(1,)](self.env._start, num_warps=1)
        return self.env

    def __exit__(self, *exc):
        envelope_pad[(1,)](self.env._start, self.env._misses, self.env._elapsed, self.slot, self.deadline_ns,
                           num_warps=1)
        if self.apply_policy and self.env.check_on_exit:
            self.env.check()
        return False


class TimingEnvelope:
    POLICIES = ("count", "warn", "raise")

    def __init__(self, deadline_us=None, policy="warn", check_on_exit=False, device=None):
        if policy not in self.POLICIES:
            raise ValueError(f"policy: expected one of {self.POLICIES}, got {policy!r}")
        if deadline_us is not None and not (isinstance(deadline_us, (int, float)) and deadline_us > 0):
            raise ValueError(f"deadline_us: expected a number > 0, got {deadline_us!r}")
        if not torch.cuda.is_available():
            raise RuntimeError("TimingEnvelope needs a CUDA GPU")
        self.policy = policy
        self.check_on_exit = check_on_exit
        dev = torch.device(device) if device is not None else torch.device("cuda", torch.cuda.current_device())
        self._start = torch.zeros(1, dtype=torch.int64, device=dev)
        self._misses = torch.zeros(1, dtype=torch.int32, device=dev)
        self._elapsed = torch.zeros(CALIBRATION_SLOTS, dtype=torch.int64, device=dev)
        self._reported = 0
        self.deadlines_us = {}
        if deadline_us is not None:
            self.deadlines_us[None] = float(deadline_us)
        # Compile and load the kernels now: a first-use JIT compile inside a region would miss its deadline.
        # Deadlines pass as i32, or i64 from 2**31 ns; a negative one returns at once (and counts a miss).
        envelope_stamp[(1,)](self._start, num_warps=1)
        for deadline in (-1, -(2 ** 40)):
            envelope_pad[(1,)](self._start, self._misses, self._elapsed, 0, deadline, num_warps=1)
        torch.cuda.synchronize()
        self._misses.zero_()

    # -- deadlines ----------------------------------------------------------------------------------------
    def calibrate(self, region, key=None, samples=1000, warmup=20, quantile=0.999, margin=1.03, inputs=None,
                  mode="pipelined", warmup_ms=WARMUP_MS):
        """Run `region()` (or `region(*inputs[i])`, rotating) inside the envelope with a zero deadline, read
        on the device how long each took from the stamp to the pad, and set the deadline for `key` to
        the `quantile` of those times x `margin`. Returns the deadline in microseconds.

        mode "pipelined": calls are queued back to back, as when the host runs ahead of the GPU (serving,
        training loops). "isolated": each call waits for the previous one, so the host's launch time
        after the stamp is inside the deadline too (one-off calls from Python).

        Warm-up runs the region at least `warmup` times and for at least `warmup_ms` of GPU time: a GPU at
        its power cap lowers its clock within the first second of load (measured on an H200: the median
        call 11% slower after 1 s than in the first 100 calls), and samples that straddle that change give
        a deadline from two clock states.
        """
        if mode not in ("pipelined", "isolated"):
            raise ValueError(f"mode: expected 'pipelined' or 'isolated', got {mode!r}")
        if not 1 <= samples <= CALIBRATION_SLOTS:
            raise ValueError(f"samples: expected 1..{CALIBRATION_SLOTS}, got {samples}")
        args = inputs or [()]
        _warm_up(region, args, warmup, warmup_ms)
        misses_before = int(self._misses.item())
        if mode == "pipelined":
            for i in range(PRIME_CALLS):  # the host is ahead of the GPU before the first measured call
                with _Region(self, 0, 0, apply_policy=False):
                    region(*args[i % len(args)])
        # Zero deadlines "miss" every time: these regions must not apply the policy (check_on_exit would
        # warn or raise mid-calibration), and the counter is restored below.
        for i in range(samples):
            with _Region(self, 0, i, apply_policy=False):
                region(*args[i % len(args)])
            if mode == "isolated":
                torch.cuda.synchronize()
        torch.cuda.synchronize()
        self._misses.fill_(misses_before)
        times = (self._elapsed[:samples].double() / 1000.0).tolist()
        self.deadlines_us[key] = deadline_from_samples(times, quantile, margin)
        return self.deadlines_us[key]

    def _deadline_ns(self, key):
        if key not in self.deadlines_us:
            raise KeyError(f"no deadline for key {key!r}: call calibrate(..., key={key!r}) or pass deadline_us")
        return int(round(self.deadlines_us[key] * 1000.0))

    # -- regions ------------------------------------------------------------------------------------------
    def __call__(self, key=None):
        return _Region(self, self._deadline_ns(key))

    def __enter__(self):
        self._default = self(None)
        return self._default.__enter__()

    def __exit__(self, *exc):
        return self._default.__exit__(*exc)

    def wrap(self, fn, key=None):
        """Decorator: every call of fn runs inside the envelope for `key`."""
        def wrapped(*a, **kw):
            with self(key):
                return fn(*a, **kw)
        wrapped.__wrapped__ = fn
        return wrapped

    # -- misses -------------------------------------------------------------------------------------------
    @property
    def misses(self) -> int:
        """Deadline misses counted on the device so far (synchronises with the device)."""
        return int(self._misses.item())

    def check(self):
        """Apply the policy to misses since the last check; returns the number of new misses."""
        total = self.misses
        new, self._reported = total - self._reported, total
        if new and self.policy == "raise":
            raise DeadlineMissed(f"{new} timing-envelope deadline miss(es): those calls' end times leaked")
        if new and self.policy == "warn":
            warnings.warn(f"{new} timing-envelope deadline miss(es): those calls' end times leaked",
                          DeadlineMissedWarning, stacklevel=2)
        return new
