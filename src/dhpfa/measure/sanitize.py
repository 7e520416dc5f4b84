"""compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over a representative set of variants:
every head dim, causal and not, odd sequence lengths, GQA."""
import os
import re
import shutil
import subprocess
import sys

TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")


def child():
    import torch

    import dhpfa
    from dhpfa.kernels import variants
    g = torch.Generator(device="cuda").manual_seed(0)
    dtype = torch.bfloat16  # fp16 differs only in conversions; halves the sanitizer time
    # (batch, seq_q, seq_k, head dims): odd lengths for every head dim (on Hopper, few programs: the
    # few-program variants), then grids of more programs than SMs that reach the Gluon kernel (D=128 / 256
    # past GLUON_SHORT_SEQ_K, and at most it: the causal builds that skip masked blocks, and D=128's deferred
    # O store, with 4-5 tiles a program so the store is waited for before its buffer is rewritten), then D=64
    # past the short-tile lengths, causal too (three consumers), then few programs with long keys (split keys
    # at D=64/128; 20 programs: four programs per tile, SPLIT_KV = 4), few programs with keys in between
    # at D=64/128 (the Gluon one-consumer 64x128 tiles), and 72 programs with long keys (split keys in one program)
    long_k = max(variants.SHORT_SEQ_K, variants.SHORT_SEQ_K_CAUSAL) + 109
    short = variants.GLUON_SHORT_SEQ_K
    def dims_of(table):  # the head dims of a {(head dim, causal): build} table
        return tuple(sorted({d for d, _ in table}))

    cases = [(1, 197, 301, variants.HEAD_DIMS),
             (4, 1100, max(1300, short + 1), tuple(variants.SM90_GLUON)),
             (36, short - 12, short, dims_of(variants.SM90_GLUON_SHORT)),
             (1, 700, long_k, tuple(variants.SM90_GLUON_LONG)),
             (1, 300, max(variants.FEW_PROGRAMS_LONG_SEQ.values()) + 37, dims_of(variants.SM90_FEW_PROGRAMS_LONG)),
             # 72 programs (twice the grid would not fit): the one-consumer 64x128 tiles
             (3, 333, variants.FEW_PROGRAMS_MID_SEQ + 77, dims_of(variants.SM90_FEW_PROGRAMS_MID)),
             # 24 programs, keys in between: clusters of two CTAs a tile on 64-key blocks (session 43; the 40-program
             # case below takes the 128-key ones at D <= 128)
             (1, 333, variants.FEW_PROGRAMS_CLUSTER_SEQ + 77, dims_of(variants.SM90_FEW_PROGRAMS_CLUSTER_N64)),
             # 72 programs with long keys: too many to split across programs, so split keys inside one (D > 64; at
             # D <= 64 the two-CTA clusters two an SM since session 45)
             (1, 1100, variants.FEW_PROGRAMS_SPLIT_KV_SEQ + 37, dims_of(variants.SM90_FEW_PROGRAMS_SPLIT_KV)),
             # 40 programs: two programs per tile (the 20-program case above takes four)
             (1, 600, variants.FEW_PROGRAMS_SPLIT_KV_SEQ + 476, dims_of(variants.SM90_FEW_PROGRAMS_SPLIT_KV)),
             # 8 programs: eight programs per tile (three levels of meetings)
             (1, 100, variants.FEW_PROGRAMS_SPLIT_KV8_SEQ + 301, dims_of(variants.SM90_FEW_PROGRAMS_SPLIT_KV8)),
             # one query, 4 heads over 2 key/value heads: packed (api.pack_gqa) into 2 programs, sixteen per tile
             (1, 1, variants.FEW_PROGRAMS_SPLIT_KV16_SEQ + 99, dims_of(variants.SM90_FEW_PROGRAMS_SPLIT_KV16)),
             # the same, 16,451 keys: thirty-two parts (five levels)
             (1, 1, variants.FEW_PROGRAMS_SPLIT_KV32_SEQ + 67, dims_of(variants.SM90_FEW_PROGRAMS_SPLIT_KV32)),
             # 72 programs past the short-tile lengths: split keys in one program, causal one tile per program
             (1, 1100, long_k, tuple(sorted({d for (d, _), (_, t) in variants.SM90_FEW_PROGRAMS_LONG.items()
                                             if t.split_k})))]
    for b, sq, sk, dims in cases:
        for d in dims:
            for causal in (False, True):
                q = torch.randn(b, sq, 4, d, device="cuda", dtype=dtype, generator=g)
                k = torch.randn(b, sk, 2, d, device="cuda", dtype=dtype, generator=g)
                v = torch.randn(b, sk, 2, d, device="cuda", dtype=dtype, generator=g)
                dhpfa.flash_attn_func(q, k, v, causal=causal)
    # five queries, 8 heads over 2 key/value heads: packed grouped-query tiles (variants.packed_variant), eight parts;
    # nine queries over 700 keys, 3 sequences: packed tiles without a split (one program each); five queries of
    # 14 heads over 2 (groups of 7: seven heads a tile and a spare slot), eight parts; and 4 sequences of those of 8
    # heads: four parts (at D=96 / 128 a workspace merge since session 17); and twelve queries of 10 heads over 2
    # (groups of 5 in tiles of 3 and 2 heads), four parts; and 128-row packed tiles of two consumers
    # (variants.SM90_PACKED_PP; session 18): 24 queries of 8 heads over 2, 40 sequences (80 tiles), and 40 queries, 24
    # sequences (96 tiles; D >= 96, unpacked below)
    for d in variants.HEAD_DIMS:
        for causal in (False, True):
            for b, sq, sk, h in ((1, 5, variants.FEW_PROGRAMS_SPLIT_KV8_SEQ + 101, 8), (3, 9, 700, 8),
                                 (1, 5, variants.FEW_PROGRAMS_SPLIT_KV8_SEQ + 101, 14),
                                 (4, 5, variants.FEW_PROGRAMS_SPLIT_KV4_SEQ + 52, 8),
                                 (1, 12, variants.FEW_PROGRAMS_SPLIT_KV4_SEQ + 52, 10),
                                 (40, 24, 700, 8), (24, 40, 700, 8)):
                q = torch.randn(b, sq, h, d, device="cuda", dtype=dtype, generator=g)
                k = torch.randn(b, sk, 2, d, device="cuda", dtype=dtype, generator=g)
                dhpfa.flash_attn_func(q, k, torch.randn_like(k), causal=causal)
    # varlen on Hopper (variants.VARLEN_SM90; session 30): mixed lengths with padding rows, a sequence longer than
    # max_seqlen_q (its rows past the grid: NaN), and offsets out of range and order (clamped), 8 heads over 2
    for offs, max_q in (([0, 129, 130, 193, 700, 700, 827], 300), ([0, 200, 10 ** 6, 150, -7], 300)):
        cu = torch.tensor(offs, dtype=torch.int32, device="cuda")
        for d in sorted(variants.VARLEN_SM90):
            for causal in (False, True):
                q = torch.randn(840, 8, d, device="cuda", dtype=dtype, generator=g)
                k = torch.randn(840, 2, d, device="cuda", dtype=dtype, generator=g)
                dhpfa.flash_attn_varlen_func(q, k, torch.randn_like(k), cu, cu, max_q, max_q, causal=causal)
        # its local and soft-capping builds (session 31): max_seqlen_q past every rule's least (16,384: soft-capped
        # calls at D=96 / 128), windows with masked blocks at both edges
        for d in sorted(variants.VARLEN_SM90):
            for window, cap, causal in (((100, 0), 0.0, True), ((-1, -1), 30.0, False), ((37, 70), 20.0, False)):
                q = torch.randn(840, 8, d, device="cuda", dtype=dtype, generator=g)
                k = torch.randn(840, 2, d, device="cuda", dtype=dtype, generator=g)
                dhpfa.flash_attn_varlen_func(q, k, torch.randn_like(k), cu, cu, 16384, 16384, causal=causal,
                                             window_size=window, softcap=cap)
    # its paged builds (session 32; with a window and / or soft-cap, session 33): pages of 256 rows, the first
    # sequence's last (partial) key block at the start of page 0 (the producer's V fix-up), table entries out of range
    # (clamped), offsets out of range; max_seqlen_q past every rule's least
    for d in sorted(variants.VARLEN_SM90):
        for causal, window, cap in ((False, (-1, -1), 0.0), (True, (-1, -1), 0.0), (True, (100, 0), 0.0),
                                    (True, (-1, -1), 20.0), (False, (37, 70), 20.0)):
            kc = torch.randn(6, 256, 2, d, device="cuda", dtype=dtype, generator=g)
            bt = torch.tensor([[3, 0, -1], [1, 5, 10 ** 6], [2, 4, 3]], dtype=torch.int32, device="cuda")
            cu_q = torch.tensor([0, 300, 301, 800], dtype=torch.int32, device="cuda")
            cu_k = torch.tensor([0, 300, 812, 10 ** 6], dtype=torch.int32, device="cuda")
            q = torch.randn(820, 8, d, device="cuda", dtype=dtype, generator=g)
            dhpfa.flash_attn_varlen_func(q, kc, torch.randn_like(kc), cu_q, cu_k, 2048, 768, causal=causal,
                                         window_size=window, softcap=cap, block_table=bt)
    grouped_paged(g, dtype)
    torch.cuda.synchronize()
    print("child done")


def grouped_paged(g, dtype):
    """The portable kernel's grouped paged builds with a window and / or soft-cap (session 34): decode steps and 5-query
    drafts of 8 heads over 2, pages of 256 (per block) and of 48 (per key), split across programs (few sequences) and
    not (many), table entries and offsets out of range (clamped)."""
    import torch

    import dhpfa
    from dhpfa.kernels import variants
    for d in variants.VARLEN_GROUP_HEAD_DIMS:
        for window, cap, causal in (((100, 0), 0.0, True), ((-1, -1), 20.0, True), ((37, 70), 20.0, False)):
            for page, n_q, reps in ((256, 1, 1), (48, 5, 1), (256, 1, 40)):
                kc = torch.randn(6 * 256 // page, page, 2, d, device="cuda", dtype=dtype, generator=g)
                cols = 768 // page
                bt = torch.randint(0, kc.shape[0], (3 * reps, cols), dtype=torch.int32, device="cuda",
                                   generator=g)
                bt[0, -1], bt[1, -1] = -1, 10 ** 6
                lens_k = torch.tensor([300, 812, 10 ** 6] * reps, dtype=torch.int32, device="cuda")
                cu_k = torch.cat((lens_k.new_zeros(1), lens_k.cumsum(0, dtype=torch.int32)))
                cu_q = torch.arange(0, 3 * reps * n_q + 1, n_q, dtype=torch.int32, device="cuda")
                q = torch.randn(3 * reps * n_q + 7, 8, d, device="cuda", dtype=dtype, generator=g)
                dhpfa.flash_attn_varlen_func(q, kc, torch.randn_like(kc), cu_q, cu_k, n_q, 768, causal=causal,
                                             window_size=window, softcap=cap, block_table=bt)


def sanitizer_path():
    for p in (shutil.which("compute-sanitizer"), "/usr/local/cuda/bin/compute-sanitizer"):
        if p and os.path.exists(p):
            return p
    return None


def run_sanitizers(timeout=150):
    exe = sanitizer_path()
    if exe is None:
        return {"error": "compute-sanitizer not found"}
    out = {}
    for tool in TOOLS:
        child_cmd = [sys.executable, "-m", "dhpfa.measure.sanitize", "child"]
        # Only dhpfa's kernels are instrumented, except for initcheck: it must see the writes of PyTorch's
        # kernels that fill the inputs, or it reports every read of them (seen on an H200, 2026-11-21).
        filt = [] if tool == "initcheck" else ["--kernel-name", "kns=attn_fwd"]
        try:
            res = subprocess.run([exe, "--tool", tool, *filt, *child_cmd],
                                 capture_output=True, text=True, timeout=timeout)
            text = res.stdout + res.stderr
            if "child done" not in text:
                res = subprocess.run([exe, "--tool", tool, *child_cmd], capture_output=True, text=True,
                                     timeout=timeout)
                text = res.stdout + res.stderr
            m = re.search(r"ERROR SUMMARY: (\d+) error", text) or \
                re.search(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) error", text)
            errors = int(m.group(1)) if m else None
            out[tool] = dict(rc=res.returncode, errors=errors, ran="child done" in text,
                             clean=errors == 0 and "child done" in text,
                             head=text[:2500] if errors else "", tail=text[-600:] if errors else "")
        except subprocess.TimeoutExpired:
            out[tool] = dict(rc=None, errors=None, ran=False, clean=False, tail=f"timed out after {timeout} s")
    return out


if __name__ == "__main__" and len(sys.argv) == 2 and sys.argv[1] == "child":
    child()
elif __name__ == "__main__" and sys.argv[1:] == ["child", "grouped_paged"]:  # that part alone (a device run's check)
    import torch
    grouped_paged(torch.Generator(device="cuda").manual_seed(0), torch.bfloat16)
    torch.cuda.synchronize()
    print("child done")
