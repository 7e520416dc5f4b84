"""Timing envelope: calibration arithmetic (CPU) and padding, miss counting, policies, CUDA graphs (GPU)."""
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
