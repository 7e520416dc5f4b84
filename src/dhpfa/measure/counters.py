"""Hardware-counter equality across input classes and repeats, read with Nsight Compute.

A constant-time kernel with a static schedule does the same work on every input: its work counts
(tensor-core, FP32, special-function, integer, load/store instructions) and DRAM bytes must be identical
for every class and every repeat. Control and synchronisation counts (total instructions, branches) may
move with timing where warps spin on barriers: they are reported with their spread across repeats of one
input beside their spread across classes.
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys

WORK = ["smsp__inst_executed_pipe_tensor_op_gmma.sum", "smsp__inst_executed_pipe_fma.sum",
        "smsp__inst_executed_pipe_xu.sum", "smsp__inst_executed_pipe_lsu.sum",
        "smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_global_st.sum",
        "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_ldsm.sum"]
# DRAM traffic moves between repeats of one input for every kernel measured (the L2 writes back when it
# evicts, which depends on timing): measured on an H200, 2026-11-21, docs/evidence.md. So DRAM bytes are
# judged like control counts: their spread across classes against their spread across repeats.
DRAM = ["dram__bytes_read.sum", "dram__bytes_write.sum"]
# What the SMs themselves write to L2 (32-byte sectors from their store and TMA units): the kernel's own stores, before
# L2 decides when to write them back to DRAM. A static schedule stores to the same addresses on every input, so this
# must be identical across classes and repeats, like the work counts; DRAM bytes beside it then differ only by the
# cache's timing. Measured on an H100 (session 36 call 3): identical in all 10 calls of each of three kvcache decode
# steps while their DRAM write bytes moved by 10-20%. The SMs' L2 read sectors are not so: they moved between repeats
# of one input (by 10 of 1.29 million sectors in a decode step, 0.92 million in the dense kernel at (2,16,2048,128)),
# so they are judged by spread, as DRAM bytes are (L2_READ).
L2 = ["lts__t_sectors_srcunit_tex_op_write.sum"]
L2_READ = ["lts__t_sectors_srcunit_tex_op_read.sum"]
# The integer pipe also runs the retry step of an mbarrier spin-wait: in the warp-specialised Gluon kernel
# its count moved between repeats of one input (545) more than between classes (480) on an H200 (run 17),
# while every other work count stayed identical. It is judged like the control counts.
CONTROL = ["smsp__inst_executed.sum", "smsp__sass_thread_inst_executed.sum", "smsp__sass_inst_executed_op_branch.sum",
           "smsp__inst_executed_pipe_alu.sum"]
METRICS = WORK + L2 + L2_READ + DRAM + CONTROL  # what the counter runs ask ncu for
REPEATS = ("repeat-1", "repeat-2", "repeat-3", "repeat-4", "repeat-5")  # as many as classes: fair ranges


def ncu_path():
    for p in (shutil.which("ncu"), "/usr/local/cuda/bin/ncu"):
        if p and os.path.exists(p):
            return p
    return None


def parse_ncu_csv(text, metrics):
    """Rows of `ncu --csv --print-units base` -> [{metric: value} per kernel launch, in launch order]."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    if not lines:
        return []
    launches = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        name = row.get("Metric Name")
        if name not in metrics:
            continue
        key = int(row["ID"])
        val = row["Metric Value"].replace(",", "")
        try:
            num = float(val)
        except ValueError:
            continue
        d = launches.setdefault(key, {"kernel": row.get("Kernel Name", "")})
        d[name] = num
    return [launches[k] for k in sorted(launches)]


def group_calls(launches, labels):
    """Sum the launches of each call (a peer may launch several kernels per call)."""
    if not launches or len(launches) % len(labels):
        names = {}
        for i, c in enumerate(launches):
            names.setdefault(c.get("kernel", "?")[:60], []).append(i)
        raise ValueError(f"{len(launches)} profiled launches do not split into {len(labels)} calls; launches by kernel "
                         f"(their indices): {names}")
    per = len(launches) // len(labels)
    out = {}
    for i, lab in enumerate(labels):
        chunk = launches[i * per:(i + 1) * per]
        keys = [k for k in chunk[0] if k != "kernel"]
        out[lab] = {k: sum(c.get(k, 0.0) for c in chunk) for k in keys}
        out[lab]["kernels"] = sorted({c["kernel"][:60] for c in chunk})
    return out


def compare(per_call, classes, work=WORK, control=CONTROL, dram=DRAM + L2_READ, l2=L2):
    """Per metric: identical across everything? spread across repeats vs across classes. Work counts and the SMs' L2
    write sectors must be identical; DRAM bytes, the SMs' L2 read sectors and control counts are judged by their
    spread across classes against the repeats'. l2_identical is None where no L2 write metric was read (runs from
    before session 36)."""
    rep = [per_call[r] for r in REPEATS if r in per_call]
    cls = [per_call[c] for c in classes if c in per_call]
    report = {}
    for m in work + l2 + dram + control:
        rv = [x[m] for x in rep if m in x]
        cv = [x[m] for x in cls if m in x]
        if not rv or not cv:
            continue
        allv = rv + cv
        report[m] = dict(kind="work" if m in work else "l2" if m in l2 else "dram" if m in dram else "control",
                         identical=max(allv) == min(allv),
                         repeat_spread=max(rv) - min(rv), class_spread=max(cv) - min(cv),
                         min=min(allv), max=max(allv))
    work_ok = all(v["identical"] for v in report.values() if v["kind"] == "work")
    l2_same = [v["identical"] for v in report.values() if v["kind"] == "l2"]

    def within(kind):
        return all(v["identical"] or v["class_spread"] <= v["repeat_spread"]
                   for v in report.values() if v["kind"] == kind)
    return dict(metrics=report, work_identical=work_ok, l2_identical=all(l2_same) if l2_same else None,
                dram_within_repeat_spread=within("dram"),
                control_within_repeat_spread=within("control"))


def compare_rounds(per_calls, classes, metrics=DRAM + L2_READ + CONTROL):
    """Several rounds of the same calls (per_calls: one per_call dict a round, each with every class and REPEATS): per
    timing-judged metric (DRAM bytes, the SMs' L2 read sectors, control counts), Welch's t of each class's values over
    the rounds against the repeats' values over the rounds (stats.welch_t; |t| > 4.5 flagged, dudect's threshold). A
    count that follows timing scatters alike in every group; one that follows the data shifts a class in every round.
    One round's spreads (compare) cannot tell them apart where the class spread and the repeat spread are both a few
    sectors of a hundred thousand (sessions 50-53). Needs at least two rounds (five or more for a usable t)."""
    from .stats import is_leak, welch_t
    if len(per_calls) < 2:
        raise ValueError("compare_rounds needs at least two rounds")
    report = {}
    for m in metrics:
        rep = [pc[r][m] for pc in per_calls for r in REPEATS if r in pc and m in pc[r]]
        ts = {}
        for c in classes:
            vals = [pc[c][m] for pc in per_calls if c in pc and m in pc[c]]
            if len(vals) >= 2 and len(rep) >= 2:
                ts[c] = welch_t(vals, rep)
        if ts:
            worst = max(ts, key=lambda c: abs(ts[c]))
            report[m] = dict(t=ts, worst_class=worst, max_abs_t=abs(ts[worst]), flagged=is_leak(ts[worst]))
    return dict(rounds=len(per_calls), metrics=report,
                class_free=all(not v["flagged"] for v in report.values()))


# ---- child: runs inside ncu ------------------------------------------------------------------------
def child(kernel, shape, causal=False):
    import torch

    from .leak import CLASSES, KVCACHE, empty_qkv, is_gqa, kernels, kvcache_fn, make_class_inputs
    kv = kernel == KVCACHE  # (session 67) flash_attn_with_kvcache on cache-layout buffers
    fn = kvcache_fn(shape, causal) if kv else kernels(peers=True, causal=causal, gqa=is_gqa(shape))[kernel]
    inputs = make_class_inputs(shape, torch.bfloat16, pool_size=1, seed=1)
    bufs = empty_qkv(shape, torch.bfloat16, cache_layout=kv)
    labels = list(CLASSES) + list(REPEATS)
    for dst, src in zip(bufs, inputs["random"][0]):  # warm-up (compilation) outside the profiled range
        dst.copy_(src)
    for _ in range(2):  # twice: a kept plan's first call makes its constant tensors (flash_attn_with_kvcache's
        fn(*bufs)       # lengths' offsets, an arange launch; session 68)
    torch.cuda.synchronize()
    for lab in labels:
        src = inputs["fixed-random" if lab.startswith("repeat") else lab][0]
        for dst, s in zip(bufs, src):
            dst.copy_(s)
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        fn(*bufs)
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
    print(json.dumps({"labels": labels}))


def run_counters(kernel, shape, out_dir, timeout=240, causal=False, rounds=1):
    """The counter run of one kernel: classes and repeats in one ncu process, judged by compare. rounds > 1: that many
    such processes; the first round's verdicts as with one, and compare_rounds over all of them (by_rounds)."""
    from .leak import CLASSES
    ncu = ncu_path()
    if ncu is None:
        return {"error": "ncu not found"}
    per_calls = []
    for k in range(rounds):
        log = os.path.join(out_dir, f"ncu-{kernel}.csv" if k == 0 else f"ncu-{kernel}-round{k + 1}.csv")
        cmd = [ncu, "--clock-control", "none", "--profile-from-start", "off", "--csv", "--print-units", "base",
               "--log-file", log, "--metrics", ",".join(METRICS),
               sys.executable, "-m", "dhpfa.measure.counters", "child", kernel, ",".join(map(str, shape))] \
            + (["causal"] if causal else [])
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if res.returncode != 0 or not os.path.exists(log):
            return {"error": f"ncu exited {res.returncode} (round {k + 1}): {(res.stderr or res.stdout)[-800:]}"}
        labels = json.loads([ln for ln in res.stdout.splitlines() if ln.startswith("{")][-1])["labels"]
        with open(log) as f:
            launches = parse_ncu_csv(f.read(), set(METRICS))
        per_calls.append(group_calls(launches, labels))
    out = dict(per_call=per_calls[0], **compare(per_calls[0], CLASSES))
    if rounds > 1:
        out.update(rounds_per_call=per_calls[1:], by_rounds=compare_rounds(per_calls, CLASSES))
    return out


def format_table(results) -> str:
    lines = ["| kernel | instruction work counts identical (classes and repeats) | L2 sectors the SMs wrote identical | "
             "DRAM bytes and L2 sectors read: class spread <= repeat spread | control counts: class spread <= repeat "
             "spread | metrics that differ (class spread / repeat spread) |", "|---|---|---|---|---|---|"]

    def yn(x):
        return "n/a" if x is None else "yes" if x else "NO"
    for name, r in results.items():
        if "error" in r:
            lines.append(f"| {name} | n/a | n/a | n/a | n/a | {r['error'][:200]} |")
            continue
        diff = [f"{m.split('__')[1]}: {v['class_spread']:.0f} / {v['repeat_spread']:.0f}"
                for m, v in r["metrics"].items() if not v["identical"]]
        lines.append(f"| {name} | {yn(r['work_identical'])} | {yn(r.get('l2_identical'))} | "
                     f"{yn(r.get('dram_within_repeat_spread'))} | "
                     f"{yn(r['control_within_repeat_spread'])} | {'; '.join(diff) or 'none'} |")
    by_rounds = {name: r["by_rounds"] for name, r in results.items() if "by_rounds" in r}
    if by_rounds:  # (--rounds) each class against the repeats over the rounds, metrics judged by spread
        lines += ["", "| kernel | rounds | metric | largest class |t| against the repeats (class) | flagged (> 4.5) |",
                  "|---|---|---|---|---|"]
        for name, br in by_rounds.items():
            for m, v in br["metrics"].items():
                lines.append(f"| {name} | {br['rounds']} | {m.split('__')[1]} | {v['max_abs_t']:.1f} "
                             f"({v['worst_class']}) | {'YES' if v['flagged'] else 'no'} |")
    return "\n".join(lines)


def main(args):
    shape = tuple(int(x) for x in args.shape.split(","))
    os.makedirs(args.out, exist_ok=True)
    names = ["dhpfa"] + (["sdpa_flash", "sdpa_cudnn"] if args.peers else [])
    if getattr(args, "kvcache", False):  # (session 67) flash_attn_with_kvcache's route instead
        from .leak import KVCACHE, check_kvcache_shape
        check_kvcache_shape(shape, args.peers)
        names = [KVCACHE]
    causal = bool(getattr(args, "causal", False))
    rounds = max(1, int(getattr(args, "rounds", 1) or 1))
    results = {n: run_counters(n, shape, args.out, causal=causal, rounds=rounds) for n in names}
    with open(os.path.join(args.out, "counters.json"), "w") as f:
        json.dump(dict(shape=shape, causal=causal, results=results), f, indent=1)
    print(format_table(results))
    return 0 if all(r.get("work_identical") and r.get("l2_identical") is not False
                    for r in results.values() if "error" not in r) else 1


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "child":
        child(sys.argv[2], tuple(int(x) for x in sys.argv[3].split(",")), causal=sys.argv[4:5] == ["causal"])
