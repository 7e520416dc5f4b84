"""Experiment (issue 5, small shapes): grids of few programs, each program's key loop split SPLIT ways
inside the program (a batched [SPLIT, BLOCK_M, BLOCK_N] score tile: SPLIT key blocks per step, so the
serial chain has 1/SPLIT the steps), the SPLIT partial softmax states merged at the end. Beside it: the
API's choice, the SDPA backends, and an empty Triton kernel (the per-kernel floor of the graph-replay
harness). CUDA-graph replay, random order per round (scripts/ab_sm90.interleaved_ms); float64 check on
poisoned outputs first.

    PYTHONPATH=src:scripts python3 scripts/splitk_experiment.py [--shapes 1,8,512,64;1,8,512,128]
    TRITON_INTERPRET=1 PYTHONPATH=src:scripts python3 scripts/splitk_experiment.py --check-only
"""
import argparse
import json
import os
import statistics

import torch
import triton
import triton.language as tl

from dhpfa.kernels.block_info import kv_bounds
from dhpfa.kernels.ctmath import LOG2E, finalize_rows
from dhpfa.kernels.triton_fwd import SHAPE_ARGS, block_d_for, dot_precision
from dhpfa.reference import attention_ref_rows


@triton.jit(do_not_specialize=SHAPE_ARGS)
def attn_fwd_splitk(Q, K, V, O, LSE, qk_scale,
                    stride_qb, stride_qh, stride_qm, stride_kb, stride_kh, stride_kn,
                    stride_vb, stride_vh, stride_vn, stride_ob, stride_oh, stride_om,
                    H, H_KV, SEQ_Q, SEQ_K, CAUSAL_OFFSET,
                    HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    CAUSAL: tl.constexpr, DOT_PRECISION: tl.constexpr, SPLIT: tl.constexpr):
    """One program = one BLOCK_M query tile of one (batch, head); step i visits key blocks i * SPLIT + s,
    s < SPLIT, as one batched GEMM; every step masks (select to -inf); trip count public."""
    pid_m = tl.program_id(0)
    pid_bh = tl.program_id(1)
    h = pid_bh % H
    b = (pid_bh // H).to(tl.int64)
    h_kv = h // (H // H_KV)
    m0 = pid_m * BLOCK_M
    offs_m = m0 + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    m_ok = offs_m < SEQ_Q
    d_ok = offs_d < HEAD_DIM
    q_rows = tl.minimum(offs_m, SEQ_Q - 1)
    q = tl.load(Q + b * stride_qb + h * stride_qh + q_rows[:, None] * stride_qm + offs_d[None, :],
                mask=m_ok[:, None] & d_ok[None, :], other=0.0)
    qb = tl.broadcast_to(q[None, :, :], (SPLIT, BLOCK_M, BLOCK_D))
    k_base = K + b * stride_kb + h_kv * stride_kh
    v_base = V + b * stride_vb + h_kv * stride_vh
    m_i = tl.full([SPLIT, BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([SPLIT, BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([SPLIT, BLOCK_M, BLOCK_D], dtype=tl.float32)
    _, kv_end = kv_bounds(m0, SEQ_K, CAUSAL_OFFSET, BLOCK_M, BLOCK_N, CAUSAL)
    s_idx = tl.arange(0, SPLIT)
    n0 = tl.arange(0, BLOCK_N)
    for start in range(0, kv_end, SPLIT * BLOCK_N):
        offs_n = start + s_idx[:, None] * BLOCK_N + n0[None, :]                       # [SPLIT, BLOCK_N]
        rows = tl.minimum(offs_n, SEQ_K - 1)
        n_ok = offs_n < SEQ_K
        k = tl.load(k_base + rows[:, None, :] * stride_kn + offs_d[None, :, None],
                    mask=n_ok[:, None, :] & d_ok[None, :, None], other=0.0)            # [SPLIT, BLOCK_D, BLOCK_N]
        qk = tl.dot(qb, k, input_precision=DOT_PRECISION)                             # [SPLIT, BLOCK_M, BLOCK_N]
        visible = n_ok[:, None, :]
        if CAUSAL:
            visible = visible & (offs_n[:, None, :] <= offs_m[None, :, None] + CAUSAL_OFFSET)
        qk = tl.where(visible, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 2) * qk_scale)
        m_sub = tl.where(m_new == float("-inf"), 0.0, m_new)
        p = tl.math.exp2(qk * qk_scale - m_sub[:, :, None])
        alpha = tl.math.exp2(m_i - m_sub)
        l_i = l_i * alpha + tl.sum(p, 2)
        v = tl.load(v_base + rows[:, :, None] * stride_vn + offs_d[None, None, :],
                    mask=n_ok[:, :, None] & d_ok[None, None, :], other=0.0)            # [SPLIT, BLOCK_N, BLOCK_D]
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, :, None], input_precision=DOT_PRECISION)
        m_i = m_new
    # merge the SPLIT partial states (rows with no visible key in a part: m = -inf, l = 0, acc = 0)
    m = tl.max(m_i, 0)
    m_sub = tl.where(m == float("-inf"), 0.0, m)
    w = tl.math.exp2(m_i - m_sub[None, :])
    out, lse = finalize_rows(tl.sum(acc * w[:, :, None], 0), m, tl.sum(l_i * w, 0))
    tl.store(O + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :],
             out.to(O.dtype.element_ty), mask=m_ok[:, None] & d_ok[None, :])
    tl.store(LSE + pid_bh.to(tl.int64) * SEQ_Q + offs_m, lse, mask=m_ok)


def _strides3(t):
    return t.stride(0), t.stride(2), t.stride(1)


def launch(q, k, v, out, lse, scale, causal, causal_offset, split=2, block_m=64, block_n=64, num_warps=4,
           num_stages=2):
    """q, k, v, out: (B, S, H, D) views."""
    b, sq, h, d = q.shape
    grid = (triton.cdiv(sq, block_m), b * h)
    attn_fwd_splitk[grid](q, k, v, out, lse, float(scale) * LOG2E, *_strides3(q), *_strides3(k), *_strides3(v),
                          *_strides3(out), h, k.shape[2], sq, k.shape[1], int(causal_offset),
                          HEAD_DIM=d, BLOCK_D=block_d_for(d), BLOCK_M=block_m, BLOCK_N=block_n, CAUSAL=bool(causal),
                          DOT_PRECISION=dot_precision(q.dtype), SPLIT=split, num_warps=num_warps,
                          num_stages=num_stages)


@triton.jit
def _empty_kernel(X):
    pass


def check(cfg, dtype, device):
    worst = 0.0
    for (b, sq, sk, h, hk, d) in ((1, 77, 300, 4, 2, 64), (2, 200, 200, 2, 2, 64), (1, 130, 513, 2, 1, 128)):
        for causal in (False, True):
            g = torch.Generator(device=device).manual_seed(sq + sk)
            q = torch.randn(b, sq, h, d, generator=g, device=device).to(dtype)
            k = torch.randn(b, sk, hk, d, generator=g, device=device).to(dtype)
            v = torch.randn(b, sk, hk, d, generator=g, device=device).to(dtype)
            out = torch.full_like(q, float("nan"))
            lse = torch.full((b, h, sq), float("nan"), device=device)
            launch(q, k, v, out, lse, d ** -0.5, causal, sk - sq, **cfg)
            rows = torch.arange(sq, device=device)
            ro, rl = attention_ref_rows(q, k, v, d ** -0.5, sk - sq if causal else None, b - 1, h - 1, rows)
            err = float((out[b - 1, :, h - 1].double() - ro).norm() / ro.norm())
            lse_err = float((lse[b - 1, h - 1].double() - rl).abs().max())
            worst = max(worst, err if lse_err < 1e-3 else float("inf"))
    return worst


CONFIGS = {
    "s2w4": dict(split=2, num_warps=4), "s2w8": dict(split=2, num_warps=8),
    "s4w4": dict(split=4, num_warps=4), "s4w8": dict(split=4, num_warps=8),
    "s2w4n128": dict(split=2, num_warps=4, block_n=128),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out")
    ap.add_argument("--shapes", default="1,8,512,64;1,8,512,128")
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--check-only", action="store_true")
    a = ap.parse_args()
    configs = [c for c in a.configs.split(",") if c]
    if a.check_only:  # the interpreter on the CPU: fp16 and fp32 (its bf16 is wrong)
        for c in configs:
            for dt in (torch.float16, torch.float32):
                print(c, dt, f"worst rel err {check(CONFIGS[c], dt, 'cpu'):.2e}")
        return
    from ab_sm90 import interleaved_ms
    from dhpfa.measure import bench
    os.makedirs(a.out, exist_ok=True)
    res = {"device": torch.cuda.get_device_name(), "check": {}, "shapes": []}
    for c in configs:
        res["check"][c] = err = check(CONFIGS[c], torch.bfloat16, "cuda")
        print(f"check {c}: worst rel err {err:.2e}" + ("" if err < 1e-2 else "  FAIL"), flush=True)
    peers = bench.peer_kernels()
    dummy = torch.empty(1, device="cuda")
    for spec in a.shapes.split(";"):
        b, h, s, d = (int(x) for x in spec.split(","))
        for causal in (False, True):
            out = torch.empty((b, s, h, d), device="cuda", dtype=torch.bfloat16)
            lse = torch.empty((b, h, s), device="cuda")
            kernels = {"dhpfa": peers["dhpfa"], "sdpa_cudnn": peers["sdpa_cudnn"], "sdpa_flash": peers["sdpa_flash"],
                       "empty_kernel": lambda q, k, v, c: _empty_kernel[(64,)](dummy)}
            for c in configs:
                kernels[c] = (lambda cfg: lambda q, k, v, cz: launch(q.transpose(1, 2), k.transpose(1, 2),
                                                                     v.transpose(1, 2), out, lse, d ** -0.5, cz, 0,
                                                                     **cfg))(CONFIGS[c])
            sets = bench.make_inputs(bench.Case(b, h, s, d, causal), 4)
            times = interleaved_ms(kernels, sets, causal, rounds=a.rounds, batch_ms=5.0, graph=True)
            us = {n: statistics.median(t) * 1000 for n, t in times.items()}
            res["shapes"].append(dict(shape=[b, h, s, d], causal=causal, us=us))
            print(f"== {spec} causal={causal}")
            for n in sorted(us, key=us.get):
                print(f"  {n:<14} {us[n]:7.2f} us", flush=True)
    with open(os.path.join(a.out, "splitk.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
