"""CPU tests of the measurement code: statistics, ncu CSV parsing, report formats, no-GPU behaviour."""
import random
import subprocess
import sys

import pytest

from dhpfa.measure import bench, counters, leak, stats


def test_welch_flags_a_planted_one_percent_shift_under_one_percent_noise():
    rng = random.Random(0)
    n = 2000  # the default sample count of `dhpfa leak`
    a = [rng.gauss(100.0, 1.0) for _ in range(n)]
    b = [rng.gauss(101.0, 1.0) for _ in range(n)]
    t = stats.welch_t(b, a)
    assert stats.is_leak(t) and t > 0


@pytest.mark.parametrize("seed", range(5))
def test_welch_reports_no_leak_on_two_draws_of_one_distribution(seed):
    rng = random.Random(seed)
    a = [rng.gauss(100.0, 1.0) for _ in range(2000)]
    b = [rng.gauss(100.0, 1.0) for _ in range(2000)]
    assert not stats.is_leak(stats.welch_t(a, b))


def test_welch_edge_cases():
    assert stats.welch_t([1.0, 1.0], [1.0, 1.0]) == 0.0
    assert stats.welch_t([2.0, 2.0], [1.0, 1.0]) == float("inf")
    with pytest.raises(ValueError):
        stats.welch_t([1.0], [1.0, 2.0])
    assert stats.median([3, 1, 2]) == 2 and stats.median([1, 2, 3, 4]) == 2.5


NCU_CSV = '''==PROF== Connected to process 1
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","1","python3","h","attn_fwd","1","7","(256, 1, 1)","(16, 32, 1)","0","9.0","Command line profiler metrics","dram__bytes_read.sum","byte","1,048,576"
"0","1","python3","h","attn_fwd","1","7","(256, 1, 1)","(16, 32, 1)","0","9.0","Command line profiler metrics","smsp__inst_executed.sum","inst","5000"
"1","1","python3","h","attn_fwd","1","7","(256, 1, 1)","(16, 32, 1)","0","9.0","Command line profiler metrics","dram__bytes_read.sum","byte","1,048,576"
"1","1","python3","h","attn_fwd","1","7","(256, 1, 1)","(16, 32, 1)","0","9.0","Command line profiler metrics","smsp__inst_executed.sum","inst","5004"
'''


def test_parse_ncu_csv_and_group_by_call():
    launches = counters.parse_ncu_csv(NCU_CSV, {"dram__bytes_read.sum", "smsp__inst_executed.sum"})
    assert len(launches) == 2 and launches[0]["dram__bytes_read.sum"] == 1048576.0
    assert launches[1]["smsp__inst_executed.sum"] == 5004.0
    per_call = counters.group_calls(launches, ["zeros", "repeat-1"])
    assert per_call["zeros"]["kernels"] == ["attn_fwd"]
    with pytest.raises(ValueError):
        counters.group_calls(launches, ["a", "b", "c"])


def _per_call(work_by_label, control_by_label):
    return {lab: {"dram__bytes_read.sum": work_by_label[lab], "smsp__inst_executed.sum": control_by_label[lab]}
            for lab in work_by_label}


def test_counter_comparison_verdicts():
    labels = ["zeros", "ones", "repeat-1", "repeat-2", "repeat-3"]
    same = {lab: 100.0 for lab in labels}
    spin = {"zeros": 5001.0, "ones": 5002.0, "repeat-1": 5000.0, "repeat-2": 5003.0, "repeat-3": 5001.0}
    kw = dict(work=["dram__bytes_read.sum"], control=["smsp__inst_executed.sum"], dram=[])
    r = counters.compare(_per_call(same, spin), ["zeros", "ones"], **kw)
    assert r["work_identical"] and r["control_within_repeat_spread"]
    moved = dict(same, zeros=90.0)
    r = counters.compare(_per_call(moved, spin), ["zeros", "ones"], **kw)
    assert not r["work_identical"]
    wide = dict(spin, ones=6000.0)
    r = counters.compare(_per_call(same, wide), ["zeros", "ones"], **kw)
    assert not r["control_within_repeat_spread"]
    assert "| k | yes | n/a | yes | NO |" in counters.format_table({"k": r})
    # DRAM bytes that move as much between repeats as between classes are not a data dependence
    r = counters.compare(_per_call(moved, spin), ["zeros", "ones"], work=[], control=[],
                         dram=["dram__bytes_read.sum"])
    assert r["dram_within_repeat_spread"] is False
    jitter = dict(same, **{"repeat-2": 80.0})
    r = counters.compare(_per_call(jitter, spin), ["zeros", "ones"], work=[], control=[],
                         dram=["dram__bytes_read.sum"])
    assert r["dram_within_repeat_spread"] is True


def test_counter_rounds_tell_timing_scatter_from_a_class_shift():
    """`dhpfa counters --rounds R` (session 53): each class's values over the rounds against the repeats' (Welch's t):
    a count that scatters alike in every call (timing) is not flagged, even where one round's class spread exceeds its
    repeat spread (the single-round "NO"); a class shifted in every round by a few times the scatter is; one round is
    refused; the table lists the largest |t| per metric."""
    import random
    classes = ["fixed-random", "zeros", "ones", "spiky", "sink"]  # as many as the repeats, as the real runs
    labels = classes + list(counters.REPEATS)
    m = "lts__t_sectors_srcunit_tex_op_read.sum"
    rng = random.Random(7)

    def rounds(shift):
        return [{lab: {m: 141400.0 + rng.gauss(0.0, 20.0) + (shift if lab == "ones" else 0.0)} for lab in labels}
                for _ in range(8)]
    noise = rounds(0.0)
    one_round_no = any(not counters.compare(pc, classes, work=[], control=[], dram=[m],
                                            l2=[])["dram_within_repeat_spread"] for pc in noise)
    assert one_round_no  # the single-round verdict flips on scatter alone (rng seeded: some round shows it)
    r = counters.compare_rounds(noise, classes, metrics=[m])
    assert r["rounds"] == 8 and r["class_free"] and r["metrics"][m]["max_abs_t"] < 4.5, r
    r = counters.compare_rounds(rounds(100.0), classes, metrics=[m])
    assert not r["class_free"] and r["metrics"][m]["worst_class"] == "ones" and r["metrics"][m]["flagged"], r
    with pytest.raises(ValueError, match="two rounds"):
        counters.compare_rounds(noise[:1], classes, metrics=[m])
    base = counters.compare(noise[0], classes, work=[], control=[], dram=[m], l2=[])
    table = counters.format_table({"k": dict(base, work_identical=True, by_rounds=r)})
    assert "| k | 8 | t_sectors_srcunit_tex_op_read.sum |" in table and "(ones) | YES |" in table


def test_l2_sectors_must_be_identical():
    """The SMs' own L2 sectors are judged as work counts: any difference, even one that repeats of one input share,
    is a failure; identical ones pass whatever DRAM does beside them."""
    labels = ["zeros", "ones", "repeat-1", "repeat-2", "repeat-3"]
    l2 = "lts__t_sectors_srcunit_tex_op_write.sum"
    dram = "dram__bytes_write.sum"

    def per_call(l2_vals, dram_vals):
        return {lab: {l2: l2_vals[lab], dram: dram_vals[lab]} for lab in labels}
    same = {lab: 4096.0 for lab in labels}
    noisy = {"zeros": 1.0e6, "ones": 1.1e6, "repeat-1": 0.9e6, "repeat-2": 1.2e6, "repeat-3": 1.0e6}
    r = counters.compare(per_call(same, noisy), ["zeros", "ones"], work=[], control=[], dram=[dram], l2=[l2])
    assert r["l2_identical"] is True and r["dram_within_repeat_spread"] is True
    assert r["metrics"][l2]["kind"] == "l2"
    assert "| k | n/a | yes | yes |" in counters.format_table({"k": dict(r, work_identical=None)})
    spread = dict(same, **{"repeat-2": 4128.0, "zeros": 4100.0})
    r = counters.compare(per_call(spread, noisy), ["zeros", "ones"], work=[], control=[], dram=[dram], l2=[l2])
    assert r["l2_identical"] is False
    assert "| k | yes | NO |" in counters.format_table({"k": dict(r, work_identical=True)})
    r = counters.compare(per_call(same, noisy), ["zeros", "ones"], work=[], control=[], dram=[dram], l2=[])
    assert r["l2_identical"] is None


def test_leak_table_marks_leaks_and_failed_calibration():
    row = {c: {"t": 1.0, "leak": False, "median_us": 10.0} for c in leak.CLASSES}
    row["zeros"] = {"t": -20.0, "leak": True, "median_us": 9.0}
    row["random"] = {"median_us": 10.0}
    row["calibration_ok"] = True
    table = leak.format_table({"k": row, "bad": dict(row, calibration_ok=False), "x": {"error": "boom"}})
    assert "-20.0 **LEAK**" in table and "calibration FAILED" in table and "boom" in table


@pytest.mark.gpu
def test_bench_case_interleaves_rounds_and_reports_refusals():
    """bench_case times every kernel over the asked rounds (eager and in graph replay) and reports a kernel
    that refuses the case as an error instead of failing the cell."""
    import dhpfa

    def refuses(q, k, v, causal):
        raise RuntimeError("not this case")

    kernels = {"dhpfa": lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal),
               "refuses": refuses}
    for graph in (False, True):
        row = bench.bench_case(bench.Case(2, 4, 512, 64, True), kernels, rounds=3, batch_ms=2.0, graph=graph)
        assert row["refuses"]["error"] == "RuntimeError: not this case"
        assert len(row["dhpfa"]["rounds"]) == 3 and all(t > 0 for t in row["dhpfa"]["rounds"])
        assert row["dhpfa"]["tflops"] > 0


@pytest.mark.gpu
def test_long_context_interleaves_lengths_and_reports_refusals():
    """long_context times every (kernel, length) pair in the same rounds; each length's rel_to_16k is the
    median per-round ratio to the first length (exactly 1 there), and a kernel that refuses gets an error."""
    import dhpfa

    def refuses(q, k, v, causal):
        raise RuntimeError("not this case")

    kernels = {"dhpfa": lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal),
               "refuses": refuses}
    rows = bench.long_context(kernels, seqs=(512, 1024), head_dim=64, heads=2, rounds=3, batch_ms=2.0)
    assert [r["case"]["seq"] for r in rows] == [512, 1024]
    for r in rows:
        assert r["results"]["refuses"]["error"] == "RuntimeError: not this case"
        res = r["results"]["dhpfa"]
        assert len(res["rounds"]) == 3 and res["tflops"] > 0 and res["rel_to_16k"] > 0
    assert rows[0]["results"]["dhpfa"]["rel_to_16k"] == 1.0
    assert "rel. 16K" in bench.format_long(rows)


def test_long_context_rows_from_interleaved_times(monkeypatch):
    """long_context's arithmetic, without a GPU: every (kernel, length) pair goes to one interleaved_ms call;
    TFLOPS come from each pair's median time, rel_to_16k from the median of per-round ratios to the first
    length (so a round where both ran slow cancels), and a refusal becomes that pair's error."""
    seen = {}

    def fake_interleaved(entries, inputs, causal, rounds, batch_ms, errors):
        seen.update(keys=sorted(entries), batch_ms=batch_ms, rounds=rounds)
        errors[("refuses", 512)] = "RuntimeError: no"
        # per-round ms: a 1024-key call costs 4x a 512-key one (same TFLOPS); in round 1 only the 1024-key
        # batch ran at half speed, in round 2 both did. Per-round ratios 1, 0.5, 1 (median 1); the ratio of the
        # medians would read 0.5
        return {("k", 512): [1.0, 1.0, 2.0], ("k", 1024): [4.0, 8.0, 8.0], ("refuses", 1024): [1.0, 1.0, 1.0]}

    monkeypatch.setattr(bench, "interleaved_ms", fake_interleaved)
    monkeypatch.setattr(bench, "make_inputs", lambda case, n: [("q", "k", "v")] * n)
    monkeypatch.setattr(bench.torch.cuda, "empty_cache", lambda: None)
    kernels = {"k": None, "refuses": None}
    rows = bench.long_context(kernels, seqs=(512, 1024), head_dim=64, heads=2, rounds=3)
    assert seen == dict(keys=[("k", 512), ("k", 1024), ("refuses", 512), ("refuses", 1024)],
                        batch_ms=bench.LONG_BATCH_MS, rounds=3)
    k512, k1024 = rows[0]["results"]["k"], rows[1]["results"]["k"]
    assert k512["ms"] == 1.0 and k1024["ms"] == 8.0
    assert k512["tflops"] == pytest.approx(bench.Case(1, 2, 512, 64, False).flops() / 1e9)
    assert k512["rel_to_16k"] == 1.0
    assert k1024["rel_to_16k"] == pytest.approx(1.0)
    assert rows[0]["results"]["refuses"] == {"error": "RuntimeError: no"}
    assert "rel_to_16k" not in rows[1]["results"]["refuses"]  # no first-length time to compare with


def test_bench_parts_are_checked_before_any_gpu_work(tmp_path):
    """`dhpfa bench --parts` names a subset of the bench's parts and `--batch-ms` a positive duration; a bad
    value stops the run with a message that names the argument, before any kernel runs (no GPU here)."""
    import argparse
    args = argparse.Namespace(out=str(tmp_path), parts="grid,lng", dtypes="bf16", quick=False, batch_ms=None)
    with pytest.raises(SystemExit, match="--parts: unknown part"):
        bench.main(args)
    args = argparse.Namespace(out=str(tmp_path), parts="grid", dtypes="bf16", quick=False, batch_ms=-5.0)
    with pytest.raises(SystemExit, match="--batch-ms: expected a number of milliseconds > 0"):
        bench.main(args)
    for bad in ("32/5", "32", "32/8,x/2", "0/8", "32/-8"):
        args = argparse.Namespace(out=str(tmp_path), parts="decode", dtypes="bf16", quick=False, batch_ms=None,
                                  decode_heads=bad)
        with pytest.raises(SystemExit, match="--decode-heads: expected comma-separated H/H_KV pairs"):
            bench.main(args)


def test_decode_part_head_layouts():
    """(Session 66.) `dhpfa bench --decode-heads`: each H/H_KV layout (MHA 32/32, groups of 16 64/4) at the default
    layout's (sequence, key/value head) pair counts, 8-1,024 (at least one sequence a cell)."""
    assert bench.decode_heads("32/8,32/32,64/4") == ((32, 8), (32, 32), (64, 4))
    assert bench.decode_cells() == bench.decode_cells(heads=(bench.DECODE_HEADS,))
    for h, hk in ((32, 32), (64, 4), (16, 16), (128, 8)):
        cells = bench.decode_cells(heads=((h, hk),))
        pairs = {c[0] * c[2] for c in cells}
        assert all(c[1:3] == (h, hk) for c in cells) and max(pairs) == 1024 and min(pairs) == max(hk, 8), (h, hk)
    quick = bench.decode_cells(heads=((32, 8), (32, 32)), **bench.DECODE_QUICK)
    assert len(quick) == 12 + 12 and {c[0] for c in quick if c[2] == 32} == {1, 8, 32}


def test_bench_formats_and_flops():
    c = bench.Case(1, 16, 16384, 128, True)
    assert c.flops() == 4 * 16 * 16384 * 16384 * 128 / 2
    cases = bench.grid_cases()
    assert len(cases) == 36 and all(x.batch * x.seq == 16384 and x.heads * x.head_dim == 2048 for x in cases)
    rows = [{"case": {"head_dim": 128, "causal": False, "dtype": "bf16", "seq": 1024}, "label": "x",
             "results": {"dhpfa": {"tflops": 600.0}, "sdpa_cudnn": {"tflops": 500.0}, "sdpa_flash": {"error": "no"}}}]
    table = bench.format_table(rows)
    assert "1.20 (sdpa_cudnn)" in table and "n/a" in table


@pytest.mark.parametrize("cmd", ["bench", "leak", "counters", "suite"])
def test_gpu_commands_stop_with_a_message_without_gpu(cmd):
    import torch
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    res = subprocess.run([sys.executable, "-m", "dhpfa", cmd], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2
    assert "needs a CUDA GPU" in res.stderr and "Traceback" not in res.stderr


def test_leak_and_counter_shapes_take_grouped_heads():
    """`dhpfa leak/counters --shape B,H,Sq,D,Sk,H_kv`: q (B, H, Sq, D), k and v (B, H_kv, Sk, D), and the kernels run
    with enable_gqa; four numbers keep one shape for all three; other lengths are refused by name."""
    assert leak.qkv_shapes((2, 8, 64, 128)) == ((2, 8, 64, 128),) * 3
    assert leak.qkv_shapes((4, 32, 1, 128, 8192, 8)) == ((4, 32, 1, 128), (4, 8, 8192, 128), (4, 8, 8192, 128))
    assert leak.is_gqa((4, 32, 1, 128, 8192, 8)) and not leak.is_gqa((4, 32, 1, 128, 8192, 32))
    with pytest.raises(ValueError, match="shape: expected B,H,S,D or B,H,Sq,D,Sk,H_kv"):
        leak.qkv_shapes((1, 2, 3))


def test_kvcache_leak_and_counter_runs(monkeypatch):
    """(Session 67.) `dhpfa leak / counters --kvcache`: one query a sequence only (other shapes refused naming --shape),
    not with --peers; fixed cache lengths (public: the same for every class), at least one key each; the buffers' k
    and v views of (B, S_k, H_kv, D) memory, whose transposes are the contiguous caches flash_attn_with_kvcache
    takes."""
    import argparse
    import tempfile

    import torch
    leak.check_kvcache_shape((2, 32, 1, 128, 4096, 8))
    for bad in ((2, 32, 4, 128, 4096, 8), (2, 32, 1, 128)):
        with pytest.raises(ValueError, match="--shape: --kvcache"):
            leak.check_kvcache_shape(bad)
    assert leak.kvcache_lengths(3, 4096) == [4096, 3965, 3834] and leak.kvcache_lengths(3, 200) == [200, 69, 1]
    q, k, v = leak.empty_qkv((2, 32, 1, 128, 1000, 8), torch.bfloat16, cache_layout=True, device="cpu")
    assert q.shape == (2, 32, 1, 128) and k.shape == v.shape == (2, 8, 1000, 128)
    assert k.transpose(1, 2).is_contiguous() and v.transpose(1, 2).is_contiguous() and not k.is_contiguous()
    assert all(t.is_contiguous() for t in leak.empty_qkv((2, 32, 1, 128, 1000, 8), torch.bfloat16, device="cpu"))
    args = argparse.Namespace(shape="2,32,1,128,4096,8", out=tempfile.mkdtemp(),
                              peers=True, kvcache=True, samples=10, envelope=False, causal=False, rounds=1)
    for main in (leak.main, counters.main):
        with pytest.raises(ValueError, match="--kvcache: .* not with --peers"):
            main(args)
    args.peers, args.shape = False, "2,32,4,128,4096,8"
    for main in (leak.main, counters.main):
        with pytest.raises(ValueError, match="--shape: --kvcache"):
            main(args)


def test_decode_part_rows_from_interleaved_times(monkeypatch):
    """The bench's decode part (session 64), without a GPU: its cells (H / H_kv 32 / 8, 8-1,024 pairs), the bytes a
    call must read, each kernel's median time in CUDA-graph replay with its rate, a refusal as that kernel's error, and
    the table's ratio (the best peer's time over dhpfa's)."""
    cells = bench.decode_cells()
    assert len(cells) == 36 and {c[0] * c[2] for c in cells} == {8, 32, 128, 256, 512, 1024}
    assert bench.decode_bytes((2, 32, 8, 1000, 128)) == 2 * (2 * 2 * 8 * 1000 * 128 + 2 * 2 * 32 * 128)
    seen = []

    def fake_interleaved(kernels, sets, causal, rounds, batch_ms, graph, errors):
        seen.append((len(sets), graph, rounds, batch_ms))
        errors["refuses"] = "RuntimeError: no"
        return {"dhpfa": [0.010, 0.020, 0.011], "sdpa_cudnn": [0.012, 0.012, 0.013]}

    monkeypatch.setattr(bench, "interleaved_ms", fake_interleaved)
    monkeypatch.setattr(bench, "decode_inputs", lambda cell, n, dtype: [("q", "k", "v")] * n)
    monkeypatch.setattr(bench.torch.cuda, "empty_cache", lambda: None)
    kernels = {"dhpfa": None, "sdpa_cudnn": None, "refuses": None}
    rows = bench.decode_part(kernels, cells=[(1, 32, 8, 1024, 128), (128, 32, 8, 16384, 128)], rounds=3)
    assert seen == [(8, True, 3, 5.0), (2, True, 3, 5.0)]  # (small cells: more input sets, past the L2)
    r = rows[0]["results"]
    assert r["dhpfa"]["us"] == pytest.approx(11.0) and r["sdpa_cudnn"]["us"] == pytest.approx(12.0)
    assert r["dhpfa"]["tbps"] == pytest.approx(bench.decode_bytes((1, 32, 8, 1024, 128)) / 0.011 / 1e9)
    assert r["refuses"] == {"error": "RuntimeError: no"}
    table = bench.format_decode(rows)
    assert "| (1, 32, 8, 1024, 128) | 11.0 (" in table and "1.09 (sdpa_cudnn)" in table and "n/a" in table


@pytest.mark.gpu
def test_decode_part_times_the_api_and_reports_refusals():
    """decode_part on the GPU: dhpfa through SDPA's entry point (enable_gqa) in graph replay, a refusing kernel
    reported as an error."""
    import dhpfa

    def refuses(q, k, v, causal):
        raise RuntimeError("not this case")

    kernels = {"dhpfa": lambda q, k, v, causal: dhpfa.scaled_dot_product_attention(q, k, v, enable_gqa=True),
               "refuses": refuses}
    rows = bench.decode_part(kernels, cells=[(2, 32, 8, 1000, 128), (17, 32, 4, 1025, 64)], rounds=3, batch_ms=1.0)
    for row in rows:
        assert row["results"]["refuses"]["error"] == "RuntimeError: not this case"
        res = row["results"]["dhpfa"]
        assert len(res["rounds"]) == 3 and res["us"] > 0 and res["tbps"] > 0
