"""One varlen call on the Hopper varlen kernel: D, causal and the sequence lengths from the command line (a debugging
aid for compute-sanitizer; session 30).
    PYTHONPATH=src python3 scripts/varlen_sm90_one.py D CAUSAL LEN[,LEN...] [H H_KV]"""
import sys

import torch

import dhpfa

d, causal, lens = int(sys.argv[1]), bool(int(sys.argv[2])), [int(x) for x in sys.argv[3].split(",")]
cu = torch.tensor([0] + [sum(lens[:i + 1]) for i in range(len(lens))], dtype=torch.int32, device="cuda")
h, hk = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (2, 2)
q = torch.randn(sum(lens), h, d, device="cuda", dtype=torch.bfloat16)
k, v = (torch.randn(sum(lens), hk, d, device="cuda", dtype=torch.bfloat16) for _ in range(2))
out = dhpfa.flash_attn_varlen_func(q, k, v, cu, cu, max(lens), max(lens), causal=causal)
torch.cuda.synchronize()
print("done", d, causal, lens, float(out.float().abs().mean()))
