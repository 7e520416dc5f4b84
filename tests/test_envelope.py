"""Timing envelope: calibration arithmetic (CPU) and padding, miss counting, policies, CUDA graphs (GPU)."""
import time
import warnings

import pytest
import torch

from dhpfa import envelope
from dhpfa.envelope import deadline_from_samples


def test_deadline_is_quantile_times_margin():
    times = [float(i) for i in range(1, 1001)]  # 1..1000 us
    assert deadline_from_samples(times, quantile=0.999, margin=1.0) == 999.0
    assert deadline_from_samples(times, quantile=0.5, margin=1.1) == pytest.approx(550.0)
    assert deadline_from_samples(times, quantile=1.0, margin=1.0) == 1000.0
    with pytest.raises(ValueError):
        deadline_from_samples([], 0.9)
    with pytest.raises(ValueError):
        deadline_from_samples(times, quantile=0.9, margin=0.9)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message on a machine with no GPU")
def test_needs_a_gpu():
    with pytest.raises(RuntimeError, match="needs a CUDA GPU"):
        envelope.TimingEnvelope(deadline_us=100)


def _busy(n=2048):
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    return lambda: a @ a


@pytest.mark.gpu
def test_region_is_padded_to_the_deadline():
    env = envelope.TimingEnvelope(deadline_us=2000.0, policy="raise")
    work = _busy(256)
    work()  # the first matmul creates the cuBLAS handle: host time that would count inside the region
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(5):
        s.record()
        with env:
            work()
        e.record()
        e.synchronize()
        assert s.elapsed_time(e) * 1000 >= 2000.0 * 0.98
    assert env.check() == 0 and env.misses == 0


@pytest.mark.gpu
def test_missed_deadlines_are_counted_and_reported():
    env = envelope.TimingEnvelope(deadline_us=1.0, policy="warn")
    assert env.misses == 0, "construction warms the kernels and leaves the counter at zero"
    work = _busy(4096)
    for _ in range(3):
        with env:
            work()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert env.check() == 3
    assert any(issubclass(x.category, envelope.DeadlineMissedWarning) for x in w)
    strict = envelope.TimingEnvelope(deadline_us=1.0, policy="raise")
    with strict:
        work()
    with pytest.raises(envelope.DeadlineMissed):
        strict.check()


@pytest.mark.gpu
def test_calibrate_per_key_and_cuda_graph_capture():
    env = envelope.TimingEnvelope(policy="count")
    work = _busy(4096)  # GPU-bound: the host stays ahead, as the pipelined calibration assumes
    d = env.calibrate(work, key="mm1024", samples=200)
    assert d > 0 and env.deadlines_us["mm1024"] == d
    iso = env.calibrate(work, key="iso", samples=50, mode="isolated")
    assert iso > 0 and env.deadlines_us["iso"] == iso
    duty = env.calibrate(work, key="duty", samples=50, rounds=1, warmup_ms=0)  # under the envelope's own padding
    assert duty > 0 and len(env.last_calibration_us) == 50 and env.misses == 0
    with pytest.raises(ValueError, match="rounds"):
        env.calibrate(work, key="bad", rounds=-1)
    with pytest.raises(KeyError, match="no deadline"):
        env("other")
    g = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    with torch.cuda.graph(g):
        with env("mm1024"):
            work()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(10):
        g.replay()
    e.record()
    e.synchronize()
    assert s.elapsed_time(e) * 1000 / 10 >= d * 0.98
    assert env.check() == env.misses  # every miss, if any, is counted and reported once


@pytest.mark.gpu
def test_envelope_around_a_compiled_region():
    env = envelope.TimingEnvelope(policy="count")
    a = torch.randn(4096, 4096, device="cuda")
    region = torch.compile(lambda x: torch.relu(x @ x).sum())
    region(a)  # compile outside the envelope
    d = env.calibrate(lambda: region(a), key="compiled", samples=200)
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(5):
        with env("compiled"):
            region(a)
    e.record()
    e.synchronize()
    assert s.elapsed_time(e) * 1000 >= 5 * d * 0.98
    assert env.check() <= 1, "a GPU-bound compiled region almost never overruns its p99.9 deadline"


@pytest.mark.gpu
def test_calibration_does_not_trip_check_on_exit():
    env = envelope.TimingEnvelope(policy="raise", check_on_exit=True)
    work = _busy(2048)
    d = env.calibrate(work, key="k", samples=50)  # zero-deadline calibration regions count no miss
    assert d > 0 and env.misses == 0


@pytest.mark.gpu
def test_gate_keeps_host_time_out_of_the_deadline():
    """Host time spent inside the region, before its kernels are queued: the ungated envelope's clock runs
    while the GPU waits for the host (every call misses); the gated one starts once the host has queued
    the region (no call misses), and the gate opens when released, not at its timeout."""
    work = _busy(1024)
    work()
    gated = envelope.TimingEnvelope(deadline_us=2000.0, policy="count", gate_timeout_us=200_000.0)
    ungated = envelope.TimingEnvelope(deadline_us=2000.0, policy="count", gate=False)
    walls = {}
    for name, env in (("gated", gated), ("ungated", ungated)):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(5):
            with env:
                time.sleep(0.005)  # 5 ms of host time after the stamp is queued
                work()
        torch.cuda.synchronize()
        walls[name] = time.perf_counter() - t0
    assert ungated.misses == 5
    assert gated.misses == 0
    assert walls["gated"] < 5 * 0.05, f"the gate waited for its timeout: {walls}"


@pytest.mark.gpu
def test_gate_times_out_when_the_region_waits_for_the_gpu():
    """A region that synchronises with the GPU inside the envelope would deadlock on the gate (the GPU
    waits for the host's release, the host for the GPU): the gate's timeout lets it finish, at the cost of
    that timeout."""
    env = envelope.TimingEnvelope(deadline_us=1000.0, policy="count", gate_timeout_us=3000.0)
    work = _busy(512)
    t0 = time.perf_counter()
    with env:
        work()
        torch.cuda.synchronize()  # waits for the gated stamp: released by its 3 ms timeout
    torch.cuda.synchronize()
    wall = time.perf_counter() - t0
    assert 0.003 <= wall < 1.0, wall


@pytest.mark.gpu
def test_envelope_arguments_are_checked():
    with pytest.raises(ValueError, match="gate_timeout_us"):
        envelope.TimingEnvelope(deadline_us=10.0, gate_timeout_us=0)
    with pytest.raises(ValueError, match="device"):
        envelope.TimingEnvelope(deadline_us=10.0, device="cpu")
