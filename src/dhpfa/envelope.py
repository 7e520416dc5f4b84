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

The gate. Launched eagerly, the stamp kernel could start while the host is still queueing the region: the
GPU would then idle inside the deadline, waiting for the host (a launch gap), and a slow host turns into a
missed deadline. So, eagerly, the stamp kernel first waits until the host has queued the whole region and
the pad: on exit the host writes the region's sequence number into a pinned, device-visible flag, and the
stamp starts the clock only once it reads that number (or after `gate_timeout_us`, so a region that waits
for the GPU from the host, such as `.item()` inside it, costs that timeout rather than hanging: that call
then counts its host time and may miss). The deadline then covers GPU time only. Under CUDA-graph capture
there is no host between the kernels and no gate. The gate's release time is the host's, which reads no
data of the region.
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


@triton.jit(do_not_specialize=["seq", "timeout_ns"])
def envelope_stamp(start_ptr, gate_ptr, seq, timeout_ns, GATED: tl.constexpr):
    """Stamp the start. GATED: first wait until the host has written gate_ptr[0] >= seq (it does once the
    region and the pad are queued), or until timeout_ns have passed. The loop reads a host-written counter
    and the clock, no data."""
    if GATED:
        t0 = _globaltimer()
        now = t0
        flag = tl.load(gate_ptr, volatile=True)
        while (flag < seq) & (now - t0 < timeout_ns):
            flag = tl.load(gate_ptr, volatile=True)
            now = _globaltimer()
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
    gate = torch.empty(1, dtype=torch.int64)
    miss = torch.empty(1, dtype=torch.int32)
    elapsed = torch.empty(4, dtype=torch.int64)
    return [("envelope_stamp", envelope_stamp, (start, gate, 1, 1000), dict(GATED=False, num_warps=1), ()),
            # the gate holds a sequence number the host writes, public by construction
            ("envelope_stamp (gated)", envelope_stamp, (start, gate, 1, 1000), dict(GATED=True, num_warps=1),
             ("gate_ptr",)),
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


def _int_width(x):
    return "i32" if -2 ** 31 <= x < 2 ** 31 else "i64"


class _Launcher:
    """The envelope's kernels, launched through Triton's JIT once per (kernel, constexprs, integer widths,
    device) and afterwards through the compiled kernel's launcher (host time: a JIT launch re-binds and
    re-specialises every argument). Integer arguments are not specialised on value, only on width."""

    def __init__(self):
        self._kernels = {}

    def __call__(self, fn, args, device_index, **constexprs):
        key = (fn, device_index, tuple(sorted(constexprs.items())),
               tuple(_int_width(a) for a in args if isinstance(a, int)))
        k = self._kernels.get(key)
        if k is None or not _plain_launch_allowed():
            k = fn[(1,)](*args, num_warps=1, **constexprs)
            if hasattr(k, "packed_metadata"):
                self._kernels[key] = (k, [constexprs[p.name] for p in fn.params[len(args):]])
            return
        from .kernels.dispatch import run_compiled
        kernel, tail = k
        run_compiled(kernel, (1, 1, 1), device_index, *args, *tail)


def _plain_launch_allowed():
    from .kernels.dispatch import no_launch_hooks
    return no_launch_hooks()


class _Region:
    def __init__(self, env, deadline_ns, slot=0, apply_policy=True):
        self.env, self.deadline_ns, self.slot = env, deadline_ns, slot
        self.apply_policy = apply_policy
        self.gated = False

    def __enter__(self):
        env = self.env
        if torch.cuda.current_device() != env._index:
            raise RuntimeError(f"TimingEnvelope: made for cuda:{env._index}, entered with cuda:"
                               f"{torch.cuda.current_device()} current; select its device first")
        self.gated = env.gate and not torch.cuda.is_current_stream_capturing()
        if self.gated:
            env._seq += 1
            self.seq = env._seq
            env._launch(envelope_stamp, (env._start, env._gate, self.seq, env._gate_timeout_ns), env._index,
                        GATED=True)
        else:
            env._launch(envelope_stamp, (env._start, env._start, 0, 0), env._index, GATED=False)
        return env

    def __exit__(self, *exc):
        env = self.env
        try:
            env._launch(envelope_pad, (env._start, env._misses, env._elapsed, self.slot, self.deadline_ns),
                        env._index)
        finally:
            if self.gated:  # the region and the pad are queued: open the gate (even if the pad failed)
                env._gate_host[0] = self.seq
        if self.apply_policy and env.check_on_exit:
            env.check()
        return False


class TimingEnvelope:
    POLICIES = ("count", "warn", "raise")

    def __init__(self, deadline_us=None, policy="warn", check_on_exit=False, device=None, gate=True,
                 gate_timeout_us=20_000.0):
        """gate: eager regions start their clock only once the host has queued them (see the module
        docstring); gate_timeout_us bounds that wait. Regions must not wait for the GPU from the host
        (synchronize, .item()) with the gate on: each such region would cost the timeout."""
        if policy not in self.POLICIES:
            raise ValueError(f"policy: expected one of {self.POLICIES}, got {policy!r}")
        if deadline_us is not None and not (isinstance(deadline_us, (int, float)) and deadline_us > 0):
            raise ValueError(f"deadline_us: expected a number > 0, got {deadline_us!r}")
        if not torch.cuda.is_available():
            raise RuntimeError("TimingEnvelope needs a CUDA GPU")
        self.policy = policy
        self.check_on_exit = check_on_exit
        dev = torch.device(device) if device is not None else torch.device("cuda", torch.cuda.current_device())
        if dev.type != "cuda":
            raise ValueError(f"device: expected a CUDA device, got {dev}")
        if dev.index is None:
            dev = torch.device("cuda", torch.cuda.current_device())
        self._start = torch.zeros(1, dtype=torch.int64, device=dev)
        self._misses = torch.zeros(1, dtype=torch.int32, device=dev)
        self._elapsed = torch.zeros(CALIBRATION_SLOTS, dtype=torch.int64, device=dev)
        self._reported = 0
        self.deadlines_us = {}
        if deadline_us is not None:
            self.deadlines_us[None] = float(deadline_us)
        if not (isinstance(gate_timeout_us, (int, float)) and gate_timeout_us > 0):
            raise ValueError(f"gate_timeout_us: expected a number > 0, got {gate_timeout_us!r}")
        self.gate = bool(gate)
        self._index = dev.index
        self._gate_timeout_ns = int(gate_timeout_us * 1000)
        # the gate: pinned host memory, which the GPU reads through unified addressing
        self._gate = torch.zeros(1, dtype=torch.int64, pin_memory=True)
        self._gate_host = self._gate.numpy()  # host writes without a torch op (no host time to speak of)
        self._seq = 0
        self._launch = _Launcher()
        # Compile and load the kernels now: a first-use JIT compile inside a region would miss its deadline.
        # Deadlines and sequence numbers pass as i32, or i64 from 2**31; a negative deadline returns at once
        # (and counts a miss); a gate whose number is already written opens at once.
        with torch.cuda.device(dev):
            for seq in (0, -(2 ** 40)):
                self._launch(envelope_stamp, (self._start, self._gate, seq, self._gate_timeout_ns), self._index,
                             GATED=True)
                self._launch(envelope_stamp, (self._start, self._start, seq, 0), self._index, GATED=False)
            for deadline in (-1, -(2 ** 40)):
                self._launch(envelope_pad, (self._start, self._misses, self._elapsed, 0, deadline), self._index)
            torch.cuda.synchronize()
        self._misses.zero_()

    # -- deadlines ----------------------------------------------------------------------------------------
    def calibrate(self, region, key=None, samples=1000, warmup=20, quantile=0.999, margin=1.03, inputs=None,
                  mode="pipelined", warmup_ms=WARMUP_MS, rounds=1):
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

        rounds > 0 (default 1): then run the region `samples` times more inside the envelope with the deadline
        found so far (so the GPU idles in the pad as it will in use, which at a power cap changes its clock)
        and set the deadline from those times instead; repeat `rounds` times. The samples of the last round
        are kept in `last_calibration_us`. Why 1 by default (H200, `scripts/envelope_duty.py`, 1,014
        enveloped calls per shape at four grid shapes, in two sessions): rounds=0 missed its deadline at 3 of
        the 8 shape-runs (9 to 202 misses), rounds=1 at none, for about the same mean overhead (8.7-9.2%).
        """
        if mode not in ("pipelined", "isolated"):
            raise ValueError(f"mode: expected 'pipelined' or 'isolated', got {mode!r}")
        if not (isinstance(rounds, int) and rounds >= 0):
            raise ValueError(f"rounds: expected an int >= 0, got {rounds!r}")
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
        deadline_ns = 0
        for _ in range(rounds + 1):
            for i in range(samples):
                with _Region(self, deadline_ns, i, apply_policy=False):
                    region(*args[i % len(args)])
                if mode == "isolated":
                    torch.cuda.synchronize()
            torch.cuda.synchronize()
            times = (self._elapsed[:samples].double() / 1000.0).tolist()
            deadline_ns = int(round(deadline_from_samples(times, quantile, margin) * 1000.0))
        self._misses.fill_(misses_before)
        self.last_calibration_us = times
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
