"""A/B of Gluon kernel builds and tile configurations in one process on one GPU (device run).

Each kernel module (the working tree's kernels/sm90_fwd.py, or copies of other versions of it given as
NAME=PATH) runs each applicable configuration: correctness against float64 on odd shapes with poisoned
outputs, then speed on the 16K-token protocol cells beside the API's default and the SDPA backends.
Timing is interleaved: in each round every kernel runs `batch` calls between CUDA events, so clock drift
hits all kernels alike; the figure is the median over rounds. Cells with S <= GRAPH_MAX_SEQ are timed in
CUDA-graph replay unless --eager: the direct launches here (sm90_check.gluon_fn: descriptors and arguments
rebuilt per call, no cached launcher) can be host-bound there. Session 10 run 3: at D=128 S=512 causal every
directly launched build read ~180 TFLOPS eagerly while the API (cached launcher) read 305; in graph replay
(run 4) they read 234-300.

    PYTHONPATH=src python3 scripts/ab_sm90.py --out DIR [--module base=out/ab/sm90_base.py] \
        [--configs d64_n128s3,...] [--cases 64:4096,128:16384]
"""
import argparse
import importlib.util
import json
import os
import statistics

import torch

from dhpfa.kernels import triton_fwd
from dhpfa.kernels.variants import TileConfig
from dhpfa.measure import bench
from dhpfa.measure.bench import interleaved_ms
from sm90_check import check, gluon_fn  # scripts/: one launch against float64; bench wrapper

PP = dict(warp_specialized=True, split=2, pingpong=True, persistent=True)
CONFIGS = {  # name -> (head dims, launch keyword arguments)
    "n128s2": ((64, 128), dict(block_m=128, block_n=128, stages=2, **PP)),
    "n128s3": ((64, 128), dict(block_m=128, block_n=128, stages=3, **PP)),
    "n64s2": ((128, 256), dict(block_m=128, block_n=64, stages=2, **PP)),
    "n64s3": ((64, 128), dict(block_m=128, block_n=64, stages=3, **PP)),
    "n64s4": ((64,), dict(block_m=128, block_n=64, stages=4, **PP)),
    "n128s4": ((64,), dict(block_m=128, block_n=128, stages=4, **PP)),
    # two consumer warpgroups that issue their GEMMs without taking turns
    "n128s2_nopp": ((64, 128), dict(block_m=128, block_n=128, stages=2, **{**PP, "pingpong": False})),
    "n64s2_nopp": ((256,), dict(block_m=128, block_n=64, stages=2, **{**PP, "pingpong": False})),
    # three consumer warpgroups (192-row tiles; D=64 ships m192n128s2_x3_nopp: session 6 run 2)
    "m192n128s2_x3": ((64,), dict(block_m=192, block_n=128, stages=2, **{**PP, "split": 3})),
    "m192n128s3_x3": ((64,), dict(block_m=192, block_n=128, stages=3, **{**PP, "split": 3})),
    "m192n128s2_x3_nopp": ((64,), dict(block_m=192, block_n=128, stages=2, **{**PP, "split": 3, "pingpong": False})),
    "m192n128s3_x3_nopp": ((64,), dict(block_m=192, block_n=128, stages=3, **{**PP, "split": 3, "pingpong": False})),
    "m192n64s2_x3_nopp": ((128,), dict(block_m=192, block_n=64, stages=2, **{**PP, "split": 3, "pingpong": False})),
    "m192n64s3_x3_nopp": ((128,), dict(block_m=192, block_n=64, stages=3, **{**PP, "split": 3, "pingpong": False})),
    "m192n64s3_x3": ((128,), dict(block_m=192, block_n=64, stages=3, **{**PP, "split": 3})),
    # each consumer computes only its own causal blocks (sm90_fwd._consume_tile, SKIP): on by default where
    # sm90_fwd.skips_masked says (the configurations above follow it); these force it off or on
    "n64s3_noskip": ((128,), dict(block_m=128, block_n=64, stages=3, skip_masked=False, **PP)),
    "n64s2_noskip": ((256,), dict(block_m=128, block_n=64, stages=2, skip_masked=False, **PP)),
    "m192n128s2_x3_nopp_noskip": ((64,), dict(block_m=192, block_n=128, stages=2, skip_masked=False,
                                              **{**PP, "split": 3, "pingpong": False})),
    "n128s2_skip": ((64, 128), dict(block_m=128, block_n=128, stages=2, skip_masked=True, **PP)),
    # short causal cells (D=128, S <= 1K): one program per tile, and 64-row tiles with one consumer
    "n64s3_np": ((128,), dict(block_m=128, block_n=64, stages=3, **{**PP, "persistent": False})),
    "m64n64s3_x1": ((128,), dict(block_m=64, block_n=64, stages=3, warp_specialized=True)),
    "m64n64s2_x1": ((128,), dict(block_m=64, block_n=64, stages=2, warp_specialized=True)),
    # the one-consumer build under a 128-register launch limit: two CTAs per SM instead of one (session 8)
    "m64n64s3_x1_r128": ((64,), dict(block_m=64, block_n=64, stages=3, warp_specialized=True, maxnreg=128)),
    "m64n64s2_x1_r128": ((64, 128), dict(block_m=64, block_n=64, stages=2, warp_specialized=True, maxnreg=128)),
    # session 24: three CTAs per SM (80 registers at launch: the consumer's setmaxnreg takes 136, no spills offline at
    # D=64), and the one-consumer builds with the PV GEMM beside the softmax (pv_overlap) at two CTAs per SM
    "m64n64s2_x1_r80": ((64,), dict(block_m=64, block_n=64, stages=2, warp_specialized=True, maxnreg=80)),
    "m64n64s3_x1_r80": ((64,), dict(block_m=64, block_n=64, stages=3, warp_specialized=True, maxnreg=80)),
    "m64n64s3_x1_ov_r80": ((64,), dict(block_m=64, block_n=64, stages=3, warp_specialized=True, maxnreg=80,
                                       pv_overlap=True)),
    "m64n64s3_x1_ov_r128": ((64,), dict(block_m=64, block_n=64, stages=3, warp_specialized=True, maxnreg=128,
                                        pv_overlap=True)),
    "m64n128s2_x1_ov_r128": ((64,), dict(block_m=64, block_n=128, stages=2, warp_specialized=True, maxnreg=128,
                                         pv_overlap=True)),
    # four CTAs per SM (64 registers at launch: the consumer takes 104 and spills 16 bytes at D=64)
    "m64n64s2_x1_r64": ((64,), dict(block_m=64, block_n=64, stages=2, warp_specialized=True, maxnreg=64)),
    "m64n64s3_x1_r64": ((64,), dict(block_m=64, block_n=64, stages=3, warp_specialized=True, maxnreg=64)),
}


def _config(name, dims, tiles, p7=False):
    """CONFIGS[name]; p7: also name_p7 with 7 programs, so each runs many tiles (correctness of the schedule's
    next-tile coordinates, buffer phases and the deferred store's waits)."""
    CONFIGS[name] = (dims, tiles)
    if p7:
        CONFIGS[f"{name}_p7"] = (dims, dict(tiles, num_sms=7))


# two Q buffers, the next tile's Q loaded during this one (sm90_fwd Q_DOUBLE, session 9)
for _name in ("n128s2", "n64s3", "m192n128s2_x3_nopp"):
    _config(f"{_name}_qd", CONFIGS[_name][0], dict(CONFIGS[_name][1], q_double=True), p7=True)
# session 10: two Q buffers with deeper rings at D=64 (113-177 KB of shared memory), and n64s2 at D=128
_config("n128s3_qd", (64,), dict(CONFIGS["n128s3"][1], q_double=True), p7=True)
_config("n128s4_qd", (64,), dict(CONFIGS["n128s4"][1], q_double=True), p7=True)
_config("n64s2_qd", (128,), dict(CONFIGS["n64s2"][1], q_double=True), p7=True)
# ... and deeper rings at D=128 for the short causal cells: 4 slots of 64 keys (192 KB; with two Q buffers 225 KB)
_config("n64s4_d128", (128,), CONFIGS["n64s4"][1], p7=True)
_config("n64s4_qd", (128,), dict(CONFIGS["n64s4"][1], q_double=True), p7=True)
# the O store waited for at the next tile's epilogue (sm90_fwd DEFER_STORE; shipped at D=128 non-causal S <= 512)
_config("n128s2_qd_ds", (64, 128), dict(CONFIGS["n128s2_qd"][1], defer_store=True), p7=True)
# ... on the D=128 causal short cells' build (n64s3, one Q buffer; session 11)
_config("n64s3_ds", (128,), dict(CONFIGS["n64s3"][1], defer_store=True), p7=True)
# the Triton kernels (tiles["triton"] = (kernel, TileConfig)): D=64's short tiles (variants.SM90_SHORT)
CONFIGS["t_m64n64s3"] = ((64,), dict(triton=("attn_fwd_tma", TileConfig(64, 64, 4, 3))))
# ... and its neighbours at D=64 S <= 1K (session 10 run 15): stages, pointer loads, 128 keys, 128 rows
CONFIGS["t_m64n64s2"] = ((64,), dict(triton=("attn_fwd_tma", TileConfig(64, 64, 4, 2))))
CONFIGS["t_m64n64s4"] = ((64,), dict(triton=("attn_fwd_tma", TileConfig(64, 64, 4, 4))))
CONFIGS["t_m64n64s3_ptr"] = ((64,), dict(triton=("attn_fwd", TileConfig(64, 64, 4, 3))))
CONFIGS["t_m64n128s2"] = ((64,), dict(triton=("attn_fwd_tma", TileConfig(64, 128, 4, 2))))
CONFIGS["t_m128n64s3w8"] = ((64,), dict(triton=("attn_fwd_tma", TileConfig(128, 64, 8, 3))))
CONFIGS["t_m128n128s2w8"] = ((64,), dict(triton=("attn_fwd_tma", TileConfig(128, 128, 8, 2))))
# session 26: the Triton 64-row TMA tiles at D=128 / 256 (variants.SM90_SHORT; the few-program causal grids run them)
# against the Gluon builds on the short causal cells
CONFIGS["t_m64n64s3_d128"] = ((128,), dict(triton=("attn_fwd_tma", TileConfig(64, 64, 4, 3))))
CONFIGS["t_m64n32s3_d256"] = ((256,), dict(triton=("attn_fwd_tma", TileConfig(64, 32, 4, 3))))
# session 16: the Gluon one-consumer 64-row tiles of few-program grids (variants.SM90_FEW_PROGRAMS_MID / _FEW_PROGRAMS)
# on the full grid at D=64's short cells (issue 2's D=64 S=512 cell)
CONFIGS["m64n128s2_x1_ov"] = ((64,), dict(block_m=64, block_n=128, stages=2, warp_specialized=True, pv_overlap=True))
CONFIGS["m64n64s3_x1_d64"] = ((64,), dict(block_m=64, block_n=64, stages=3, warp_specialized=True))
CONFIGS["m64n64s3_x1_ov"] = ((64,), dict(block_m=64, block_n=64, stages=3, warp_specialized=True, pv_overlap=True))


# session 37: on each causal unit's second tile the consumers exchange row halves (sm90_fwd BALANCE), so both compute
# 9 of a 512-query head's 18 blocks per unit instead of 8 and 10
_config("n64s3_bal", (128,), dict(CONFIGS["n64s3"][1], balance=True), p7=True)
_config("n64s2_bal", (256,), dict(CONFIGS["n64s2"][1], balance=True), p7=True)
_config("n64s3_nobal", (128,), dict(CONFIGS["n64s3"][1], balance=False))
# session 38: the balanced build with two Q buffers (the timeline build showed Q's wait at 13% of each consumer's time),
# the deferred O store, and without turns (call 3's timeline: with turns one consumer's Q wait and epilogue stall the
# other's GEMMs); the builds with two Q buffers also with 7 programs
for _qd in (False, True):
    for _ds in (False, True):
        for _pp in (False, True):
            if _qd or _ds or not _pp:
                _config("n64s3_bal" + ("_qd" if _qd else "") + ("_ds" if _ds else "") + ("" if _pp else "_nopp"),
                        (128,), dict(CONFIGS["n64s3"][1], balance=True, q_double=_qd, defer_store=_ds, pingpong=_pp),
                        p7=_qd)
_config("n64s2_nobal", (256,), dict(CONFIGS["n64s2"][1], balance=False))


# session 39: O stored from the consumers' registers (sm90_fwd O_REG), so Q is released after the last QK^T though O has
# no buffer of its own (D=256: session 38's timeline put Q's wait at 28% of each consumer's time, O staged in Q's tile)
_config("n64s2_bal_or", (256,), dict(CONFIGS["n64s2"][1], balance=True, o_regs=True), p7=True)
_config("n64s2_or", (256,), dict(CONFIGS["n64s2"][1], o_regs=True))
# ... and causal D=256 with the second consumer's O staged in its last block's V slot where that block is its alone
# (sm90_fwd V_STAGE), so Q is not held by that consumer's O store
_config("n64s2_vs", (256,), dict(CONFIGS["n64s2"][1], v_stage=True), p7=True)
# session 40: n64s2_vsor (consumer 0's O from registers, consumer 1's in its V slot) measured x0.988 at causal 512:
# docs/experiments/session40_vsor.diff
# session 40: ... and consumer 0's O in a buffer of its own (32 KB beside Q and two 64-key stages at D=256), stored
# as with defer_store, so Q is released after both consumers' last QK^T with TMA stores on both sides
_config("n64s2_vsoh", (256,), dict(CONFIGS["n64s2"][1], v_stage=True, o_half=True), p7=True)
_config("n64s2_vs_d192", (192,), dict(CONFIGS["n64s2"][1], v_stage=True))
_config("n64s2_vsoh_d192", (192,), dict(CONFIGS["n64s2"][1], v_stage=True, o_half=True))
_config("n64s2_vsohlf", (256,), dict(CONFIGS["n64s2"][1], v_stage=True, o_half=True, light_first=True), p7=True)
_config("n64s2_vsohlf_d192", (192,), dict(CONFIGS["n64s2"][1], v_stage=True, o_half=True, light_first=True))
_config("n128s2_lf", (128,), dict(CONFIGS["n128s2"][1], light_first=True))
_config("n128s2_qd_lf", (128,), dict(CONFIGS["n128s2_qd"][1], light_first=True))
_config("n64s2_d192", (192,), CONFIGS["n64s2"][1])  # D=192 runs the D=256 builds (sm90_fwd.kernel_head_dim)
_config("n64s2_or_d192", (192,), dict(CONFIGS["n64s2"][1], o_regs=True))
_config("n32s4_bal_or", (256,), dict(block_m=128, block_n=32, stages=4, balance=True, o_regs=True, **PP))
_config("n64s3_bal_or", (128,), dict(CONFIGS["n64s3"][1], balance=True, o_regs=True), p7=True)
_config("n64s4_bal_or", (128,), dict(CONFIGS["n64s3"][1], stages=4, balance=True, o_regs=True))
# ... and at D=128 with 128-key blocks, where O's buffer (32 KB) makes room for a third stage
_config("n128s2_or", (128,), dict(CONFIGS["n128s2"][1], o_regs=True))
_config("n128s3_or", (128,), dict(CONFIGS["n128s3"][1], o_regs=1), p7=True)  # 2's shared memory does not fit

# session 42: 64x128 one-consumer tiles at 128 registers at launch (the consumer takes 232 by setmaxnreg; 82 KB of
# shared memory with one stage: two CTAs an SM, each 64-row tile on a warpgroup of its own, as cuDNN's 64x128x128
# kernel at D=128 causal 512)
_config("m64n128s1_x1_r128", (128,), dict(block_m=64, block_n=128, stages=1, warp_specialized=True, maxnreg=128))
_config("m64n128s1_x1_ov_r128", (128,), dict(block_m=64, block_n=128, stages=1, warp_specialized=True, maxnreg=128,
                                             pv_overlap=True))

# session 29: D=256 with 32-key blocks, so that O gets a buffer of its own (Q 64 KB + O 64 KB + K/V 2-3 x 32 KB fit; with
# 64-key blocks O is staged in Q's tile, and the next tile's Q load waits for the O store)
CONFIGS["n32s3_d256"] = ((256,), dict(block_m=128, block_n=32, stages=3, **PP))
CONFIGS["n32s2_d256"] = ((256,), dict(block_m=128, block_n=32, stages=2, **PP))
CONFIGS["n32s3_ds_d256"] = ((256,), dict(block_m=128, block_n=32, stages=3, defer_store=True, **PP))


GRAPH_MAX_SEQ = 2048  # cells up to this length are timed in CUDA-graph replay by default (see the docstring)


def triton_launch(q, k, v, out, lse, softmax_scale, causal, causal_offset, triton=None):
    """sm90_fwd.launch's signature for a Triton kernel: tiles = dict(triton=(kernel, TileConfig))."""
    kernel, config = triton
    triton_fwd.launch(kernel, q, k, v, out, lse, softmax_scale, causal, causal_offset, config)


def launcher(mod, tiles):
    return triton_launch if "triton" in tiles else mod.launch


def load_module(name, path):
    if path == "tree":
        from dhpfa.kernels import sm90_fwd
        return sm90_fwd
    stem = os.path.splitext(os.path.basename(path))[0]
    if stem.startswith("_ab_") and os.path.dirname(os.path.abspath(path)).endswith(os.path.join("dhpfa", "kernels")):
        return importlib.import_module(f"dhpfa.kernels.{stem}")  # a copy beside sm90_fwd: its relative imports work
    spec = importlib.util.spec_from_file_location(f"ab_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def supports(mod, tiles):
    import inspect
    if "triton" in tiles:  # the working tree's Triton kernels only
        return mod.__name__.endswith("sm90_fwd")
    return all(k in inspect.signature(mod.launch_args).parameters for k in tiles)


def _quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--module", action="append", default=[], help="NAME=PATH of another sm90_fwd version")
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--cases", default="64:2048,64:4096,64:16384,128:2048,128:16384,256:16384")
    ap.add_argument("--dtype", default="bf16")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--reference", default="", help="kernel the per-round speedups are relative to: a name (dhpfa), "
                    "a module (its first configuration) or a configuration (MODULE/CONFIG, or CONFIG alone)")
    ap.add_argument("--no-correctness", action="store_true")
    ap.add_argument("--graph", action="store_true", help="time CUDA-graph replays at every cell (no host time)")
    ap.add_argument("--eager", action="store_true", help="time eager calls at every cell, short ones included")
    ap.add_argument("--batch-ms", type=float, default=30.0,
                    help="each kernel's batch per round lasts at least this long (250: sustained clocks)")
    ap.add_argument("--check-all", action="store_true", help="correctness of every module (default: the tree's)")
    ap.add_argument("--causal", choices=("both", "only", "none"), default="both",
                    help="time causal and non-causal cells (both), causal ones only, or non-causal only")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mods = {"tree": load_module("tree", "tree")}
    for spec in args.module:
        name, path = spec.split("=", 1)
        mods[name] = load_module(name, path)
    configs = [c for c in args.configs.split(",") if c]
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[args.dtype]
    res = {"device": torch.cuda.get_device_name(), "correctness": [], "speed": []}
    ok = True
    cells = [c for c in args.cases.split(",") if c]
    dims = sorted({int(c.split(":")[0]) for c in cells} or {d for n in args.configs.split(",") if n
                                                            for d in CONFIGS[n][0]})
    for mname, mod in mods.items():
        for cname in configs:
            cdims, tiles = CONFIGS[cname]
            if not supports(mod, tiles) or args.no_correctness or (mname != "tree" and not args.check_all):
                continue
            for d in (x for x in cdims if x in dims):
                for causal in (False, True):
                    for dt in (torch.bfloat16, torch.float16):
                        for shape in ((2, 333, 1000, 4, 2), (1, 1000, 333, 2, 2), (1, 2048, 2048, 2, 1)):
                            err, bad = check(*shape, d, causal, dt, tiles, launch=launcher(mod, tiles))
                            good = err < {torch.bfloat16: 1e-2, torch.float16: 2e-3}[dt] and not bad
                            ok &= good
                            res["correctness"].append(dict(module=mname, config=cname, d=d, causal=causal,
                                                           dtype=str(dt), shape=shape, rel_err=err, lse_bad=bad))
                            if not good:
                                print(f"FAIL {mname}/{cname} D{d} causal={causal} {dt} {shape}: {err:.2e} {bad}")
            print(f"correctness {mname}/{cname}: done", flush=True)
    peers = bench.peer_kernels()
    for cell in cells:
        d, s = (int(x) for x in cell.split(":"))
        kernels = {"dhpfa": peers["dhpfa"], "sdpa_flash": peers["sdpa_flash"], "sdpa_cudnn": peers["sdpa_cudnn"]}
        for mname, mod in mods.items():
            for cname in configs:
                cdims, tiles = CONFIGS[cname]
                if d in cdims and supports(mod, tiles):
                    kernels[f"{mname}/{cname}"] = gluon_fn(tiles, launch=launcher(mod, tiles))
        for causal in {"both": (False, True), "only": (True,), "none": (False,)}[args.causal]:
            # 16K tokens a cell; one sequence past 16K (the protocol's long-context cells: B = 1)
            case = bench.Case(max(1, bench.TOKENS // s), bench.HIDDEN // d, s, d, causal, args.dtype)
            sets = bench.make_inputs(case, bench.n_sets_for(case))
            graph = args.graph or (s <= GRAPH_MAX_SEQ and not args.eager)
            times = interleaved_ms(kernels, sets, causal, rounds=args.rounds, graph=graph, batch_ms=args.batch_ms)
            ms = {n: statistics.median(t) for n, t in times.items()}
            tf = {n: case.flops() / t / 1e9 for n, t in ms.items()}
            spread = {n: (_quantile(t, 0.75) - _quantile(t, 0.25)) / ms[n] for n, t in times.items()}
            ref = next((n for n in times if n == args.reference or n.startswith(args.reference + "/")
                        or n.endswith("/" + args.reference)), None) if args.reference else None
            ratio = {n: statistics.median(b / a for a, b in zip(t, times[ref])) for n, t in times.items()} \
                if ref else {}
            res["speed"].append(dict(case=case.label(), graph=graph, ms=ms, tflops=tf, iqr_rel=spread, rounds=times,
                                     speedup_vs_reference=ratio))
            print(f"{case.label() + (' [graph]' if graph else ''):<36} " + "  ".join(
                f"{n}={tf[n]:.0f}" + (f"(x{ratio[n]:.3f})" if ratio else "")
                for n in tf), flush=True)
            del sets
            torch.cuda.empty_cache()
    with open(os.path.join(args.out, "ab_sm90.json"), "w") as f:
        json.dump(res, f, indent=1)
    print("correctness:", "all OK" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
