"""Device run: where the split-key build (variants._SPLIT_K) fails. Session 8 run 1: the tuner's graph timing
of attn_fwd_sm90_ws ...m64n64w4s3x2sk at bf16 D=128 S=512 B=32 H=16 causal ended in "unspecified launch
failure"; every test before had run it on grids of at most 256 programs. Each case runs in a child process
(a fault poisons the CUDA context), eager once, eager 20 times, then 8 calls captured in a CUDA graph and
replayed, with poisoned outputs and a float64 check of two heads.

    PYTHONPATH=src:tests python3 scripts/splitk_fault.py [--cases "32,16,512,128,1;..."]
    PYTHONPATH=src:tests python3 scripts/splitk_fault.py child B,H,S,D,causal[,layout]   (one case;
    SPLITK_ONCE=1: one call only, for compute-sanitizer)
"""
import os
import subprocess
import sys
import time

CASES = "32,16,512,128,1;32,16,512,128,0;32,32,512,64,1;8,16,512,128,1;2,16,512,128,1;4,16,2048,128,1;" \
        "32,16,512,128,1,bshd"


def child(spec):
    import torch
    from dhpfa.kernels import dispatch, variants
    from reference import attention_ref_rows
    parts = spec.split(",")
    b, h, s, d, causal = (int(x) for x in parts[:5])
    layout = parts[5] if len(parts) > 5 else "bhsd"  # bhsd: the tuner's transposed views; bshd: contiguous
    causal = bool(causal)
    kernel, config = variants._SPLIT_K
    var = variants.Variant(kernel, config, torch.bfloat16, d, causal)
    g = torch.Generator(device="cuda").manual_seed(b * h + s + d)
    shape = (b, h, s, d) if layout == "bhsd" else (b, s, h, d)
    sets = [tuple(torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
            for _ in range(2)]
    view = (lambda t: t.transpose(1, 2)) if layout == "bhsd" else (lambda t: t)
    out = torch.empty((b, s, h, d), device="cuda", dtype=torch.bfloat16)
    lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)

    def call(i):
        q, k, v = sets[i % 2]
        dispatch.launch(var, view(q), view(k), view(v), out, lse, d ** -0.5, causal, 0)

    def check(tag, i):
        torch.cuda.synchronize()
        q, k, v = (view(t) for t in sets[i % 2])
        rows = torch.arange(s, device="cuda")
        worst = 0.0
        for bb, hh in {(0, 0), (b - 1, h - 1)}:
            ro, _ = attention_ref_rows(q, k, v, d ** -0.5, 0 if causal else None, bb, hh, rows)
            worst = max(worst, float((out[bb, :, hh].double() - ro).norm() / ro.norm()))
        print(f"  {tag}: nan {bool(out.isnan().any())} rel err {worst:.2e}", flush=True)

    out.fill_(float("nan"))
    call(0)
    check("eager x1", 0)
    if os.environ.get("SPLITK_ONCE") == "1":  # under compute-sanitizer: one call
        return
    out.fill_(float("nan"))
    for i in range(20):
        call(i)
    check("eager x20", 19)
    from dhpfa.measure.bench import capture_graph
    out.fill_(float("nan"))
    graph = capture_graph(lambda: [call(i) for i in range(8)])
    for _ in range(5):
        graph.replay()
    check("graph 8 calls x5", 7)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "child":
        return child(sys.argv[2])
    cases = CASES
    if "--cases" in sys.argv:
        cases = sys.argv[sys.argv.index("--cases") + 1]
    for spec in cases.split(";"):
        t = time.time()
        r = subprocess.run([sys.executable, __file__, "child", spec], capture_output=True, text=True, timeout=120)
        tail = (r.stdout + r.stderr).rstrip().splitlines()
        err = [x for x in tail if "Error" in x or "error" in x][-2:]
        print(f"== {spec}: rc {r.returncode} ({time.time() - t:.0f} s)", flush=True)
        for line in [x for x in tail if x.startswith("  ")] + err:
            print(line, flush=True)


if __name__ == "__main__":
    main()
