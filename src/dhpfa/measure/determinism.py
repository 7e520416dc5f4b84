"""Bitwise determinism: many runs of one input, and two separate processes, give identical bytes."""
import hashlib
import json
import subprocess
import sys

import torch


def _inputs(shape, seed=123):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return tuple(torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))


def _digest(t):
    return hashlib.sha256(t.contiguous().view(torch.uint8).cpu().numpy().tobytes()).hexdigest()


def output_digest(shape, causal):
    import dhpfa
    q, k, v = _inputs(shape)
    return _digest(dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal))


def run_determinism(shape=(4, 16, 2048, 128), runs=1000):
    import dhpfa
    q, k, v = _inputs(shape)
    result = {}
    for causal in (False, True):
        first = dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal)
        same = sum(torch.equal(dhpfa.scaled_dot_product_attention(q, k, v, is_causal=causal), first)
                   for _ in range(runs))
        digests = [json.loads(subprocess.run([sys.executable, "-m", "dhpfa.measure.determinism", "child",
                                              ",".join(map(str, shape)), str(int(causal))],
                                             capture_output=True, text=True, check=True).stdout)["digest"]
                   for _ in range(2)]
        result["causal" if causal else "full"] = dict(
            runs=runs, identical_runs=int(same), in_process_digest=_digest(first),
            process_digests=digests, processes_identical=len(set(digests + [_digest(first)])) == 1)
    result["ok"] = all(r["identical_runs"] == r["runs"] and r["processes_identical"]
                       for k, r in result.items() if isinstance(r, dict))
    return result


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "child":
    print(json.dumps({"digest": output_digest(tuple(int(x) for x in sys.argv[2].split(",")), sys.argv[3] == "1")}))
