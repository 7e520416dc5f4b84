"""The swapped-GEMM decode kernel (kernels/sm90_decode.py, session 54): its rule (variants.swap_decode_parts), its
builds' SASS and audit offline (CI), and on the GPU its launcher against float64 over ring shapes and part counts (the
API's own path: test_gpu.py's test_one_query_gqa_on_the_swapped_gemm_decode_kernel)."""
import json
import os
import subprocess
import sys

import pytest
import torch

from dhpfa.kernels import variants

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _offline_json(script):
    """Run `script` in a fresh Python without TRITON_INTERPRET (the conftest sets it: there the kernels are the
    interpreter's functions, which do not compile for sm_90a), src on its path; its last stdout line as JSON."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "src"), env.get("PYTHONPATH", "")])
    res = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("d,b,h,hk,sk,parts", [
    (128, 1, 32, 8, 1024, 16), (128, 1, 32, 8, 65536, 16), (128, 1, 32, 8, 1023, 0),  # from 1,024 keys
    (128, 1, 32, 4, 32768, 16), (128, 1, 28, 4, 65536, 16), (128, 1, 64, 8, 32768, 16),  # 4 and 8 pairs: 16 parts
    (64, 1, 32, 4, 16384, 32), (64, 1, 28, 4, 65536, 32), (64, 1, 32, 4, 1024, 32), (64, 1, 32, 4, 1023, 0),  # D=64
    (128, 1, 40, 5, 32768, 0), (128, 1, 48, 6, 32768, 0), (128, 1, 56, 7, 16385, 0), (64, 1, 48, 6, 32768, 22),  # 5-7
    (128, 1, 56, 7, 16384, 18), (128, 1, 40, 5, 1024, 26), (128, 1, 48, 6, 1023, 0),  # pairs: the fill to 16,384 keys
    (128, 1, 16, 2, 65536, 32), (128, 1, 12, 2, 1 << 20, 32), (128, 1, 16, 2, 65535, 0),  # 2 pairs: 32 parts
    (64, 1, 16, 2, 65536, 64), (64, 1, 16, 2, 65535, 0), (128, 1, 8, 1, 65536, 0), (128, 3, 40, 5, 16384, 0),  # 1-15
    (128, 2, 32, 8, 1024, 8), (128, 2, 32, 8, 1023, 0), (64, 2, 32, 8, 1024, 8), (64, 2, 32, 8, 1023, 0),  # 16 pairs
    (64, 1, 32, 8, 1024, 16), (64, 1, 32, 8, 1023, 0), (128, 1, 32, 4, 1024, 16),  # 16 parts from 1,024 keys
    (128, 4, 32, 8, 65536, 4), (64, 4, 32, 8, 512, 4), (128, 8, 28, 4, 1024, 4), (64, 31, 8, 1, 4096, 4),  # 31-33
    (128, 11, 24, 3, 4096, 4), (64, 4, 32, 8, 511, 0), (128, 4, 32, 8, 511, 0),  # pairs: 4 parts from 512 keys
    (128, 3, 32, 8, 65536, 0), (64, 5, 32, 8, 65536, 3), (128, 16, 32, 8, 65536, 0),  # 24, 40, 128 pairs
    (64, 2, 24, 3, 4096, 22), (64, 3, 32, 8, 1024, 5), (64, 6, 32, 8, 16384, 2), (64, 7, 32, 8, 8191, 0),  # fill
    (64, 7, 32, 8, 8192, 2), (64, 8, 32, 8, 65536, 2), (64, 9, 32, 8, 65536, 0), (64, 6, 32, 8, 1024, 2),  # 49-66
    (128, 7, 32, 4, 1024, 4), (128, 5, 30, 6, 4096, 4), (128, 5, 30, 6, 4097, 0), (128, 8, 31, 1, 4096, 0),  # 25-30
    (64, 3, 32, 8, 1023, 0), (128, 3, 32, 8, 4096, 5), (128, 3, 32, 8, 4097, 0), (128, 5, 32, 8, 4096, 0),
    (128, 3, 32, 4, 1024, 11), (128, 2, 24, 3, 4096, 22), (64, 1, 40, 5, 1024, 26),
    (128, 1, 32, 1, 65536, 0), (128, 1, 64, 4, 65536, 16), (128, 1, 16, 16, 65536, 8),  # groups of 32, 16, 1 (s. 66)
    (96, 1, 32, 8, 65536, 0), (256, 1, 32, 8, 65536, 0), (128, 1, 32, 8, 1 << 20, 16),
    (128, 17, 32, 8, 2048, 0), (128, 34, 32, 4, 32768, 0), (128, 20, 32, 8, 4096, 0), (64, 34, 32, 4, 8192, 0),  # past
    (128, 68, 32, 4, 2048, 0), (128, 68, 32, 4, 2047, 0), (128, 66, 32, 4, 4096, 0), (128, 75, 32, 4, 65536, 0),  # the
    (128, 100, 32, 4, 65536, 0), (128, 100, 32, 4, 4095, 0), (128, 76, 32, 4, 65536, 0), (64, 68, 32, 4, 65536, 0),  # SMs
    (64, 33, 32, 4, 65536, 0), (96, 68, 32, 4, 65536, 0), (128, 68, 32, 1, 65536, 0), (128, 132, 32, 4, 65536, 0),
    (64, 100, 32, 4, 65536, 0)])
def test_swap_decode_rule(d, b, h, hk, sk, parts, monkeypatch):
    """(With variants.SWAP_DECODE on, the default since session 55.) On 132 SMs: 16 parts for 8 (sequence, key/value
    head) pairs, 8 parts for 16 (where the forward kernels' clusters of eight do not fit), for 4 pairs 16 parts at D=128
    and 32 at D=64; 2 pairs from 65,536 keys in 32 parts at D=128, 64 at D=64 (session 56); 31-33 pairs in 4 parts
    (session 59); other pair counts in 132 // pairs parts from 5 pairs (SWAP_DECODE_FILL's tiers: D=64 up to 48 pairs
    from 1,024 keys and up to 66 from 8,192 (session 60); D=128 up to 8 pairs and 1,024-16,384 keys (session 60), up to
    30 pairs and 1,024-4,096 keys (24 in session 59)); groups of 1-16 heads (session 66), D = 64 / 128, from SWAP_DECODE_MIN_KEYS keys
    (SWAP_DECODE_LEAST_KEYS, session 59: 16 and 8 parts from 1,024, 4 parts from 512; session 60: D=64's 32 parts for 4
    pairs from 1,024); more pairs than SMs: none (session 61's SWAP_DECODE_OVER parts went in session 62, whose
    stream build takes one to six full waves and a small last one: test_swap_decode_stream_rule); else 0 (the
    forward kernels)."""
    monkeypatch.setattr(variants, "SWAP_DECODE", True)
    assert variants.swap_decode_parts(d, b, h, hk, sk, 132) == parts


@pytest.mark.parametrize("d,b,h,hk,sk,sm,n_prog", [
    (128, 17, 32, 8, 1024, 132, 132), (128, 34, 32, 4, 65536, 132, 132), (128, 17, 32, 8, 1023, 132, 0),  # 136 pairs
    (64, 17, 32, 8, 2048, 132, 264), (64, 34, 32, 4, 65536, 132, 264), (64, 17, 32, 8, 2047, 132, 0),
    (128, 42, 32, 4, 4096, 132, 132), (128, 43, 32, 4, 2048, 132, 0), (64, 41, 32, 4, 4096, 132, 264),  # the tail
    (64, 42, 32, 4, 4096, 132, 0), (128, 33, 32, 4, 4096, 132, 132), (128, 16, 32, 8, 4096, 132, 128),  # one wave
    (128, 68, 32, 4, 4096, 132, 132), (128, 34, 32, 1, 4096, 132, 0), (128, 34, 64, 4, 4096, 132, 132),  # 2 waves; 32; 16
    (128, 75, 32, 4, 1024, 132, 132), (128, 100, 32, 4, 1024, 132, 132), (128, 101, 32, 4, 65536, 132, 132),  # 2-3 waves
    (128, 76, 32, 4, 2048, 132, 0), (128, 50, 32, 4, 4096, 132, 0), (128, 66, 32, 4, 4096, 132, 0),  # tails, whole waves
    (128, 43, 32, 4, 4096, 132, 132), (128, 48, 32, 4, 16384, 132, 132), (128, 48, 32, 4, 4095, 132, 0),  # long
    (128, 49, 32, 4, 4096, 132, 0), (128, 112, 32, 4, 4096, 132, 132), (64, 46, 32, 4, 16384, 132, 0),  # sequences
    (128, 133, 32, 4, 4096, 132, 132), (128, 199, 32, 4, 1024, 132, 132), (128, 232, 32, 4, 4096, 132, 0),  # 4, 6, 7 waves
    (128, 130, 32, 4, 4096, 132, 0), (128, 75, 32, 4, 1023, 132, 0), (64, 68, 32, 4, 4096, 132, 0),  # 520 pairs; D=64
    (96, 34, 32, 4, 4096, 132, 0), (256, 34, 32, 4, 4096, 132, 0), (128, 30, 32, 4, 4096, 114, 114),  # other D; 114 SMs
    (64, 34, 32, 4, 1 << 20, 132, 264), (64, 34, 32, 4, 1 << 23, 132, 0),  # the 32-bit schedule's bound
    # (session 64) one wave or less, more than half the SMs' pairs: a program a pair (SWAP_DECODE_ONE's tiers)
    (128, 17, 32, 4, 1024, 132, 68), (128, 33, 32, 4, 1536, 132, 132), (128, 16, 32, 4, 1024, 132, 0),  # half
    (128, 24, 32, 4, 1023, 132, 0), (128, 24, 32, 4, 1537, 132, 0), (128, 22, 32, 4, 768, 132, 88),  # keys
    (128, 22, 32, 4, 767, 132, 0), (128, 23, 32, 4, 768, 132, 0), (128, 22, 32, 4, 3072, 132, 88),
    (128, 22, 32, 4, 3073, 132, 0), (128, 32, 32, 4, 3072, 132, 128), (128, 31, 32, 4, 2048, 132, 0),  # 0.95
    (128, 33, 32, 4, 16384, 132, 132), (128, 33, 32, 4, 16385, 132, 0), (128, 31, 32, 4, 4096, 132, 0),  # (session 65)
    (128, 32, 32, 4, 8192, 132, 128), (128, 30, 32, 4, 16384, 132, 0),
    (128, 16, 32, 8, 1024, 132, 128), (128, 34, 16, 2, 1024, 132, 68), (128, 17, 32, 32, 1024, 132, 132),  # groups
    (64, 20, 32, 4, 1024, 132, 80), (64, 18, 32, 4, 1024, 132, 0), (64, 19, 32, 4, 768, 132, 76),
    (64, 20, 32, 4, 1025, 132, 0), (64, 28, 32, 4, 4096, 132, 112), (64, 26, 32, 4, 4096, 132, 0),
    (64, 28, 32, 4, 4097, 132, 0), (64, 33, 32, 4, 767, 132, 0), (96, 20, 32, 4, 1024, 132, 0),
    (128, 20, 32, 4, 1024, 114, 80), (128, 14, 32, 4, 1024, 114, 0), (128, 28, 32, 4, 3072, 114, 112)])  # 114 SMs
def test_swap_decode_stream_rule(d, b, h, hk, sk, sm, n_prog, monkeypatch):
    """(Session 61, variants.swap_decode_stream.) attn_decode_sm90_stream takes one-query calls of grouped heads (1-16 a
    group) whose (sequence, key/value head) pairs fill the SMs once (at D=128 one to six times, session 62) and a last
    wave of at most 0.3 of them at D=128 (from 1,024 keys; 0.46 from 4,096, session 62) or a quarter at D=64 (from
    2,048), in one program an SM at D=128 and two at D=64; (session 64) at most the SMs' pairs and more than half of
    them, a program a pair where SWAP_DECODE_ONE's tiers hold the pairs and keys (D=128: 1,024-1,536 keys, up to 3,072
    at most 0.67 of the SMs' pairs (from 768 keys) and (session 65) up to 16,384 more than 0.95; D=64: 768-1,024 keys
    more than 0.55 of the SMs' pairs, up to 4,096 more than 0.8); while its schedule's products stay within 32 bits;
    else 0. The API takes it before swap_decode_parts' rule (and after swap_decode_whole's)."""
    monkeypatch.setattr(variants, "SWAP_DECODE", True)
    assert variants.swap_decode_stream(d, b, h, hk, sk, sm) == n_prog
    monkeypatch.setattr(variants, "SWAP_DECODE", False)
    assert variants.swap_decode_stream(d, b, h, hk, sk, sm) == 0


@pytest.mark.parametrize("d,b,h,hk,sk,sm,n_prog", [
    (128, 34, 32, 4, 128, 132, 136), (128, 34, 32, 4, 127, 132, 0), (128, 33, 32, 4, 1024, 132, 0),  # keys
    (64, 34, 32, 4, 512, 132, 136), (64, 34, 32, 4, 511, 132, 0),
    (128, 99, 32, 4, 2048, 132, 396), (64, 66, 32, 4, 2048, 132, 264), (64, 67, 32, 4, 1024, 132, 0),  # most
    (128, 40, 32, 4, 4096, 132, 160), (128, 34, 32, 4, 4096, 132, 0),  # band
    (128, 50, 32, 4, 8192, 132, 200), (128, 52, 32, 4, 8192, 132, 0), (128, 40, 32, 4, 8193, 132, 0),
    (128, 40, 32, 4, 3073, 132, 160), (128, 60, 32, 4, 3073, 132, 0), (128, 60, 32, 4, 3072, 132, 240),
    (64, 50, 32, 4, 8192, 132, 200), (64, 60, 32, 4, 4096, 132, 0), (128, 17, 32, 8, 1024, 132, 136),  # groups
    (128, 5, 32, 32, 1024, 132, 160), (128, 34, 64, 4, 1024, 132, 136), (128, 40, 8, 4, 1024, 132, 160),
    (96, 34, 32, 4, 1024, 132, 0), (256, 34, 32, 4, 1024, 132, 0), (128, 30, 32, 4, 1024, 114, 120),  # dims
    (128, 29, 32, 4, 1024, 114, 116), (128, 28, 32, 4, 1024, 114, 0),  # 114 SMs
    (128, 100, 32, 4, 1024, 132, 200), (128, 134, 32, 4, 1024, 132, 0), (128, 150, 32, 4, 2048, 132, 200),  # k pairs
    (128, 166, 32, 4, 1024, 132, 166), (128, 200, 32, 4, 4096, 132, 200), (128, 200, 32, 4, 4097, 132, 0),
    (128, 250, 32, 4, 1024, 132, 200), (128, 330, 32, 4, 1024, 132, 0), (128, 332, 32, 4, 1024, 132, 166),
    (128, 400, 32, 4, 1024, 132, 200),
    (128, 500, 32, 4, 1024, 132, 0), (64, 100, 32, 4, 1024, 132, 200), (128, 100, 32, 4, 127, 132, 0),
    (64, 150, 32, 4, 4096, 132, 200), (64, 166, 32, 4, 512, 132, 166), (64, 75, 32, 4, 1024, 132, 0),
    (64, 150, 32, 4, 511, 132, 0), (64, 150, 32, 4, 16384, 132, 200), (64, 150, 32, 4, 16385, 132, 0),
    (64, 21, 32, 8, 16384, 132, 168), (64, 21, 32, 8, 65536, 132, 168), (64, 21, 32, 8, 65537, 132, 0),  # (s. 65)
    (128, 42, 32, 4, 16384, 132, 0),
    (128, 150, 32, 4, 4097, 132, 0),
    (128, 100, 32, 4, 4096, 114, 0), (128, 75, 32, 4, 2048, 78, 100), (128, 120, 32, 4, 4096, 132, 0),
    (128, 3500, 32, 4, 3072, 5000, 0), (128, 300, 32, 4, 3072, 1000, 1200)])  # 5,000 SMs: past the 32-bit schedule
def test_swap_decode_whole_rule(d, b, h, hk, sk, sm, n_prog, monkeypatch):
    """(Session 63, variants.swap_decode_whole.) Whole (sequence, key/value head) pairs a program on the stream kernel's
    smaller ring (SWAP_DECODE_WHOLE) for one-query calls of grouped heads (1-16 a group) at D = 64 / 128 with more pairs
    than SMs, from 128 (D=128) / 512 (D=64) keys: a program a pair up to 3x (D=128) / 2x (D=64) the SMs' pairs, all of
    them up to 3,072 keys and up to 8,192 keys (D=64: 65,536, session 65) those of more than 1.2x and at most 1.55x
    the SMs'; past that up to 4,096
    keys (D=64: 16,384), k pairs a program for the least k of 2-8 dividing the pairs with pairs / k programs more than
    1.25x and at most 1.55x the SMs; else 0. The API takes it before the stream rule. Its schedule is one piece a pair
    and k pairs a program (what the TAIL launcher takes: at most 8), within the kernel's 32-bit schedule arithmetic.
    (These branches run where SWAP_DECODE_WHOLE_SPREAD's balanced count does not: here with that table empty;
    test_swap_decode_whole_spread_rule has the two together.)"""
    from dhpfa.kernels import sm90_decode
    monkeypatch.setattr(variants, "SWAP_DECODE", True)
    monkeypatch.setattr(variants, "SWAP_DECODE_WHOLE_SPREAD", {})
    assert variants.swap_decode_whole(d, b, h, hk, sk, sm) == n_prog
    if n_prog:
        cfg = variants.SWAP_DECODE_WHOLE[d]
        assert b * hk % n_prog == 0  # (these cases: the programs divide the pairs, the flat schedule's ranges too)
        for units in (False, True):
            assert sm90_decode.stream_pieces(b, hk, sk, n_prog, cfg.block_n, units) == 1
            assert sm90_decode.stream_most_pairs(b, hk, sk, n_prog, cfg.block_n, units) == b * hk // n_prog <= 8
        assert variants.stream_schedule_fits(n_prog, b * hk * -(-sk // cfg.block_n))
        assert variants.decode_variant(torch.bfloat16, d, stream=True, whole=True) in variants.decode_variants()
    monkeypatch.setattr(variants, "SWAP_DECODE", False)
    assert not variants.swap_decode_whole(d, b, h, hk, sk, sm)


@pytest.mark.parametrize("d,b,h,hk,sk,sm,n_prog", [
    (128, 64, 32, 8, 1024, 132, 256), (128, 128, 32, 8, 2048, 132, 256), (128, 64, 32, 8, 4097, 132, 0),  # keys
    (128, 64, 32, 8, 4096, 132, 256),
    (128, 64, 32, 8, 1023, 132, 0), (128, 133, 32, 8, 1024, 132, 213), (128, 132, 32, 8, 1024, 132, 264),  # k = 5; 4
    (128, 50, 32, 8, 1024, 132, 200), (128, 67, 32, 8, 1024, 132, 179), (128, 134, 32, 4, 1024, 132, 179),  # k = 2, 3
    (128, 105, 32, 4, 2048, 132, 210), (128, 133, 32, 4, 1024, 132, 178), (128, 213, 32, 4, 1024, 132, 213),  # stream;
    (128, 166, 32, 4, 1024, 132, 222), (128, 225, 32, 4, 2048, 132, 225), (128, 133, 32, 4, 4097, 132, 0),  # u20; k
    (128, 133, 32, 4, 4096, 132, 178), (128, 105, 32, 4, 3072, 132, 210),
    (128, 113, 32, 4, 1500, 132, 226), (64, 64, 32, 8, 1024, 132, 256), (128, 125, 32, 4, 1024, 114, 167),  # 114 SMs
    (128, 100, 32, 4, 1024, 114, 200), (128, 120, 32, 4, 2048, 132, 240), (128, 99, 32, 4, 1024, 132, 396),  # 3x
    (128, 275, 32, 4, 1024, 132, 220), (128, 330, 32, 4, 2048, 132, 264), (128, 290, 32, 4, 1024, 132, 232),  # 8-12x
    (128, 397, 32, 4, 1024, 132, 227), (128, 396, 32, 4, 1024, 132, 264), (128, 375, 32, 4, 1024, 132, 250),
    # (session 66) 12-20x the SMs' pairs up to 2,048 keys, where session 63's branches do not take the call
    (128, 256, 32, 8, 1024, 132, 256), (128, 320, 32, 8, 2048, 132, 256), (128, 330, 32, 8, 1024, 132, 264),
    (128, 331, 32, 8, 1024, 132, 0), (128, 256, 32, 8, 2049, 132, 0), (128, 200, 32, 8, 1024, 132, 200),  # k = 8
    (128, 64, 32, 32, 1024, 132, 256), (128, 256, 32, 8, 1024, 114, 228), (128, 320, 32, 8, 2048, 114, 0),  # MHA
    (64, 256, 32, 8, 1024, 132, 0),
    (64, 25, 32, 8, 16384, 132, 200), (64, 24, 32, 8, 16384, 132, 192), (64, 75, 32, 4, 1024, 132, 0),  # D=64: fill
    (64, 24, 32, 8, 65536, 132, 192), (64, 24, 32, 8, 65537, 132, 0), (64, 65, 32, 8, 65536, 132, 260),  # (the band)
    (64, 99, 32, 4, 4096, 132, 198), (64, 98, 32, 4, 4096, 132, 196), (64, 29, 32, 8, 4096, 132, 232),  # (k = 2, 196)
    (64, 165, 32, 8, 16384, 132, 264), (64, 166, 32, 8, 16384, 132, 166), (64, 65, 32, 8, 65537, 132, 0),  # 10x; keys
    (64, 65, 32, 8, 1023, 132, 0), (64, 275, 32, 4, 4096, 132, 220), (64, 175, 32, 4, 16384, 132, 234),
    (64, 50, 32, 4, 4096, 114, 200), (64, 40, 32, 4, 4096, 114, 160)])  # 114 SMs (fill: 171; band)
def test_swap_decode_whole_spread_rule(d, b, h, hk, sk, sm, n_prog, monkeypatch):
    """(Sessions 64-66, variants.SWAP_DECODE_WHOLE_SPREAD.) First in swap_decode_whole: D=128 at 1,024-4,096 keys and
    more than 3x, at most 12x the SMs' pairs, D=64 at 1,024-65,536 keys and more than 1x, at most 10x, k = ceil(pairs /
    (2x the SMs)) pairs a program at most in ceil(pairs / k) programs on the PAIR_UNITS schedule (counts k or k - 1),
    at D=64 only where those programs are at least 0.75 of 2x the SMs (else session 63's branches: 392 pairs in 196
    programs by k = 2 dividing); (session 66, SWAP_DECODE_WHOLE_SPREAD_MORE) at D=128 up to 2,048 keys the same count
    past 12x, up to 20x the SMs' pairs, after session 63's branches (1,600 pairs keep 8 a program in 200 programs); with
    SWAP_DECODE_WHOLE_UNITS off only session 63's branches (whole pairs on the flat schedule: counts dividing the
    pairs). The PAIR_UNITS schedule has no arrival, so no bound on a program's pairs (up to 10 here)."""
    from dhpfa.kernels import sm90_decode
    monkeypatch.setattr(variants, "SWAP_DECODE", True)
    assert variants.swap_decode_whole(d, b, h, hk, sk, sm) == n_prog
    if n_prog:
        cfg = variants.SWAP_DECODE_WHOLE[d]
        assert sm90_decode.stream_pieces(b, hk, sk, n_prog, cfg.block_n, True) == 1
        assert sm90_decode.stream_most_pairs(b, hk, sk, n_prog, cfg.block_n, True) == -(-b * hk // n_prog) <= 10
    if n_prog and b * hk % n_prog:
        assert sm90_decode.stream_pieces(b, hk, sk, n_prog, cfg.block_n) > 1  # (the flat schedule's pieces)
        monkeypatch.setattr(variants, "SWAP_DECODE_WHOLE_UNITS", False)
        off = variants.swap_decode_whole(d, b, h, hk, sk, sm)
        assert off != n_prog and (off == 0 or b * hk % off == 0)
        assert variants.decode_variant(torch.bfloat16, d, stream=True, whole=True).public_loads == ("FLAGS",)
        monkeypatch.setattr(variants, "SWAP_DECODE_WHOLE_UNITS", True)
        v = variants.decode_variant(torch.bfloat16, d, stream=True, whole=True)
        assert variants.stream_pair_units(v) and v.public_loads == () and v in variants.decode_variants()


@pytest.mark.parametrize("sm", [132, 114, 78])
@pytest.mark.parametrize("d", [128, 64])
def test_swap_decode_whole_rule_gives_whole_schedules(d, sm, monkeypatch):
    """Every call variants.swap_decode_whole takes (pair counts up to twenty-one times the SMs, 128-65,536 keys, on
    132 / 114 / 78 SMs) has a PAIR_UNITS schedule (session 64) of more programs than SMs and at most the pairs: one
    piece a pair (a refusal there would fail an API call), at most 10 pairs a program (session 66: 20x the SMs' pairs
    over 2x the SMs' programs), within the 32-bit schedule arithmetic; and none past 20x the SMs' pairs."""
    from dhpfa.kernels import sm90_decode
    monkeypatch.setattr(variants, "SWAP_DECODE", True)
    seen = 0
    bn = variants.SWAP_DECODE_WHOLE[d].block_n
    for pairs in range(sm + 1, 21 * sm + 1):
        for sk in (128, 512, 1025, 2048, 3072, 4096, 4097, 8193, 16384, 65536):
            n_prog = variants.swap_decode_whole(d, pairs, 8, 1, sk, sm)
            if not n_prog:
                continue
            seen += 1
            assert pairs <= 20 * sm and sm < n_prog <= pairs, (pairs, sk, n_prog)
            assert sm90_decode.stream_pieces(pairs, 1, sk, n_prog, bn, True) == 1, (pairs, sk, n_prog)
            most = sm90_decode.stream_most_pairs(pairs, 1, sk, n_prog, bn, True)
            assert most == -(-pairs // n_prog) <= 10, (pairs, sk, n_prog)
            assert variants.stream_schedule_fits(n_prog, pairs * -(-sk // bn)), (pairs, sk, n_prog)
    assert seen > 0


@pytest.mark.parametrize("sm", [132, 114, 78])
@pytest.mark.parametrize("d", [128, 64])
def test_swap_decode_stream_rule_gives_schedules_the_launcher_takes(d, sm, monkeypatch):
    """Every call variants.swap_decode_stream sends to the stream build (pair counts from one to ten waves, 768-16,385
    keys, on 132 / 114 / 78 SMs) has a schedule its TAIL launcher takes: at most SWAP_DECODE_STREAM_PARTS pieces a pair
    and at most 32 // that pairs a program (a refusal there would fail an API call); at most the SMs' pairs (session
    64), a program a pair: one piece a pair, one pair a program."""
    from dhpfa.kernels import sm90_decode
    monkeypatch.setattr(variants, "SWAP_DECODE", True)
    parts, seen, one = variants.SWAP_DECODE_STREAM_PARTS, 0, 0
    for pairs in range(1, 10 * sm + 1):
        for sk in (768, 1024, 1025, 2047, 3072, 4096, 16385):
            n_prog = variants.swap_decode_stream(d, pairs, 8, 1, sk, sm)  # (pairs sequences of one key/value head)
            if not n_prog:
                continue
            seen += 1
            assert sm90_decode.stream_pieces(pairs, 1, sk, n_prog) <= parts, (pairs, sk, n_prog)
            assert sm90_decode.stream_most_pairs(pairs, 1, sk, n_prog) <= 32 // parts, (pairs, sk, n_prog)
            if pairs <= sm:
                one += 1
                assert n_prog == pairs and sm // 2 < pairs, (pairs, sk, n_prog)
                assert sm90_decode.stream_pieces(pairs, 1, sk, n_prog) == 1, (pairs, sk, n_prog)
                assert sm90_decode.stream_most_pairs(pairs, 1, sk, n_prog) == 1, (pairs, sk, n_prog)
    assert seen > one > 0


def _stream_schedule(pairs, nb, n_prog):
    """attn_decode_sm90_stream's schedule as the kernel computes it (32-bit integer arithmetic, no division by secrets):
    {(pair, piece): program} with the pair's piece count, for its stores and arrivals."""
    total = pairs * nb
    written, counts = {}, {}
    for c in range(n_prog):
        lo, hi = c * total // n_prog, (c + 1) * total // n_prog
        for f in range(lo, hi):
            pair, blk = divmod(f, nb)
            if blk == nb - 1 or f == hi - 1:  # the segment's end: its store, as piece c - c0
                c0 = ((pair * nb + 1) * n_prog - 1) // total
                c1 = ((pair + 1) * nb * n_prog - 1) // total
                assert (pair, c - c0) not in written, (pairs, nb, n_prog, pair, c)
                written[(pair, c - c0)] = c
                counts[pair] = c1 - c0 + 1
    return written, counts


@pytest.mark.parametrize("b,hk,sk,n_prog", [(34, 4, 2048, 132), (17, 8, 1, 132), (9, 4, 1000, 132), (32, 4, 515, 264),
                                            (5, 4, 3001, 7), (1, 2, 300, 3), (100, 4, 1, 132), (40, 4, 20000, 264),
                                            (16, 8, 1023, 132), (3, 5, 9000, 97)])
def test_stream_schedule_covers_every_block_once(b, hk, sk, n_prog):
    """The programs' ranges [c T // N, (c + 1) T // N) cover the T = pairs x blocks once; every pair's pieces are
    written once each, by consecutive programs, as pieces 0 .. n - 1 of the n its arrival counts (c0 and c1 as the
    kernel computes them: the programs holding the pair's first and last blocks); stream_pieces gives the most n; and
    the launcher refuses a schedule of more pieces than the build merges or past its 32-bit arithmetic, naming
    n_prog / k."""
    from dhpfa.kernels import sm90_decode
    pairs, nb = b * hk, -(-sk // 128)
    written, counts = _stream_schedule(pairs, nb, n_prog)
    assert sorted(counts) == list(range(pairs))
    for p in range(pairs):
        progs = [written[(p, i)] for i in range(counts[p])]
        assert progs == list(range(progs[0], progs[0] + counts[p])), (p, progs)
    assert len(written) == sum(counts.values())
    assert sm90_decode.stream_pieces(b, hk, sk, n_prog) == max(counts.values())
    q = torch.empty(b, 1, 4 * hk, 64, dtype=torch.bfloat16)
    k = torch.empty(b, sk, hk, 64, dtype=torch.bfloat16)

    def args(max_parts, n=n_prog):
        return sm90_decode.stream_launch_args(q, k, k, torch.empty(max_parts, b, 4 * hk, 64),
                                              torch.empty(max_parts, 4 * hk, b), torch.empty_like(q),
                                              torch.empty(4 * hk, b), torch.empty(b * hk * max_parts, dtype=torch.int64),
                                              0.1, n, max_parts)
    most = max(counts.values())
    grid, _, kw = args(most)
    assert grid == (n_prog,) and kw["MAX_PARTS"] == most and kw["NQ"] == 8
    if most > 1:
        with pytest.raises(ValueError, match="n_prog"):
            args(most - 1)
    with pytest.raises(ValueError, match="n_prog"):
        args(most, pairs * nb + 1)
    big = torch.empty(1, dtype=torch.bfloat16).expand(b, ((1 << 31) // ((n_prog + 1) * pairs) + 1) * 128, hk, 64)
    with pytest.raises(ValueError, match="k:"):
        sm90_decode.stream_launch_args(q, big, big, None, None, None, None, None, 0.1, n_prog, 64)


@pytest.mark.parametrize("sm,d,b,sk,parts", [(66, 128, 1, 65536, 8), (66, 64, 1, 8192, 8), (66, 128, 2, 65536, 4),
                                             (114, 128, 1, 65536, 0), (114, 128, 2, 65536, 0), (64, 128, 1, 65536, 8)])
def test_swap_decode_rule_follows_the_sm_count(sm, d, b, sk, parts, monkeypatch):
    """(b, 32 heads over 8) on other SM counts (an H100 PCIe's 114; partitions of 66 and 64): the pairs x parts must
    fit the SMs, and 8 parts only past the forward kernels' clusters of eight (FEW_ROWS_QUAD_CTAS scaled); 16 pairs
    on 66 SMs in 4 parts (64 CTAs, as 32 pairs on 132)."""
    monkeypatch.setattr(variants, "SWAP_DECODE", True)
    assert variants.swap_decode_parts(d, b, 32, 8, sk, sm) == parts


@pytest.mark.parametrize("sq,sk,h,hk,causal,offset,one", [
    (1, 4096, 32, 32, False, 4095, 1), (1, 4096, 32, 32, True, 4095, 1), (1, 4096, 32, 32, True, 0, 0),  # causal
    (1, 1, 8, 8, True, 0, 1), (2, 4096, 32, 32, False, 4094, 0), (1, 4096, 32, 8, False, 4095, 0)])  # 2 queries; GQA
def test_mha_decode_is_a_group_of_one(sq, sk, h, hk, causal, offset, one, monkeypatch):
    """(Session 66.) api.mha_decode: a one-query call with H = H_KV runs as a group of one on the swap decode kernels'
    rules where the query sees every key (causal only bottom-right aligned, as pack_gqa); grouped heads are pack_gqa's.
    With variants.SWAP_DECODE_MIN_GROUP = 2 (the rule before session 66) neither mha_decode nor the rules take it."""
    from dhpfa import api
    assert api.mha_decode(sq, sk, h, hk, causal, offset) == one
    rules = (variants.swap_decode_parts(128, 1, 16, 16, 65536, 132), variants.swap_decode_stream(128, 17, 32, 32,
                                                                                                1024, 132),
             variants.swap_decode_whole(128, 5, 32, 32, 1024, 132))
    assert rules == (8, 132, 160)
    monkeypatch.setattr(variants, "SWAP_DECODE_MIN_GROUP", 2)
    assert api.mha_decode(sq, sk, h, hk, causal, offset) == 0
    assert variants.swap_decode_parts(128, 1, 16, 16, 65536, 132) == 0
    assert variants.swap_decode_stream(128, 17, 32, 32, 1024, 132) == 0
    assert variants.swap_decode_whole(128, 5, 32, 32, 1024, 132) == 0


def test_decode_nq_and_the_nq16_builds(monkeypatch):
    """(Session 66.) decode_nq: 8 query columns for groups of 1-8, 16 for 9-16 (the launchers' NQ); the API may launch
    the NQ = 16 forms of the split, stream and whole-pair builds and (session 67) the merged build at half the staged
    parts (decode_build_ok; the plain build's combine path is off by default), and those are audited (decode_variants);
    with SWAP_DECODE_MAX_GROUP = 8 (the rule before) none. The merged build's MAX_PARTS halves at NQ = 16 (its staged
    states, MAX_PARTS x NQ x D fp32, keep the NQ = 8 build's bytes); the split build's does not (it stages none)."""
    from dhpfa.kernels import sm90_decode
    assert [variants.decode_nq(g) for g in (1, 2, 7, 8, 9, 12, 16)] == [8, 8, 8, 8, 16, 16, 16]
    kinds = dict(plain={}, merged=dict(merged=True), split=dict(merged=True, split=True), stream=dict(stream=True),
                 whole=dict(stream=True, whole=True))
    audited = variants.decode_variants()
    for d in (64, 128):
        for kind, kw in kinds.items():
            v8, v16 = (variants.decode_variant(torch.bfloat16, d, nq=nq, **kw) for nq in (8, 16))
            assert v8.config.block_m == 8 and v16.config.block_m == 16 and v8 in audited
            assert variants.decode_build_ok(v8)
            assert variants.decode_build_ok(v16) == (kind != "plain") == (v16 in audited), kind
            assert variants.stream_pair_units(v16) == variants.stream_pair_units(v8) == (kind == "whole")
    assert variants.swap_decode_parts(128, 1, 64, 4, 65536, 132) == 16  # (a group of 16: the rule's parts)
    for d, most in ((128, 32), (64, 64)):
        assert variants.swap_decode_merge_build(d)[0] == variants.SWAP_DECODE_MERGE_PARTS[d] == most
        assert variants.swap_decode_merge_build(d, 16)[0] == most // 2
        assert variants.swap_decode_merge_build(d, 16)[1:] == variants.swap_decode_merge_build(d)[1:]
        q = torch.empty(2, 1, 32, d, dtype=torch.bfloat16)
        k = torch.empty(2, 64 * 128, 2, d, dtype=torch.bfloat16)
        merge = (torch.empty_like(q), torch.empty(32, 2), torch.empty(2 * 2 * 64, dtype=torch.int64))
        sp = variants.SWAP_DECODE_SPLIT[d]
        for parts, split in ((4, 0), (most // 2, 0), (16, sp), (most, sp)):
            ws = (torch.empty(parts, 2, 32, d), torch.empty(parts, 32, 2))
            _, _, kw = sm90_decode.launch_args(q, k, k, *ws, 0.1, parts, merge=merge, split=split)
            assert kw["NQ"] == 16 and kw["MAX_PARTS"] == (most if split else most // 2), (d, parts, split, kw)
        with pytest.raises(ValueError, match="merges at most"):
            sm90_decode.launch_args(q, k, k, torch.empty(most, 2, 32, d), torch.empty(most, 32, 2), 0.1, most,
                                    merge=merge)
    monkeypatch.setattr(variants, "SWAP_DECODE_MAX_GROUP", 8)
    assert all(v.config.block_m == 8 for v in variants.decode_variants())
    assert not variants.decode_build_ok(variants.decode_variant(torch.bfloat16, 128, True, True, nq=16))
    assert variants.swap_decode_parts(128, 1, 64, 4, 65536, 132) == 0


@pytest.mark.parametrize("d", [32, 64, 96, 128, 192, 256])
def test_decode_choice_gives_audited_builds_or_none(d):
    """(Session 66.) variants.decode_choice, the API's decode route: for any head dim (those without swap builds: None,
    not an error), groups of 1-32 and pair counts of one to twenty waves, either None or an audited build the API may
    launch at the group's NQ with a positive count; groups of 9-16 never on the plain build, and on the merged build
    (session 67) only with at most its MAX_PARTS parts at NQ = 16; and at D = 64 / 128 each group of 1-16 reaches the
    swap kernels somewhere, groups of 9-16 the merged build too."""
    from dhpfa.kernels import sm90_decode
    audited = variants.decode_variants()
    reached, merged = set(), set()
    for group in (1, 2, 4, 7, 8, 9, 12, 16, 32):
        for pairs in (2, 4, 8, 16, 32, 100, 136, 264, 500, 1100, 2600):
            for sk in (1, 1000, 4096, 20000, 65536):
                hk = 8 if pairs % 8 == 0 else 1 if pairs < 4 else 4 if pairs % 4 == 0 else 2
                choice = variants.decode_choice(torch.bfloat16, d, pairs // hk, group * hk, hk, sk, 132)
                if choice is None:
                    continue
                v, n = choice
                assert v in audited and variants.decode_build_ok(v) and n > 0, (group, pairs, sk, v.name)
                assert v.config.block_m == variants.decode_nq(group) and group <= variants.SWAP_DECODE_MAX_GROUP
                if group > 8:
                    assert v.kernel in variants.SWAP_DECODE_NQ16_KERNELS, (group, pairs, sk, v.name)
                if v.kernel == variants.SWAP_DECODE_MERGED_KERNEL:
                    even = variants.swap_decode_even(pairs, n, 132)
                    n_parts = sm90_decode.decode_parts(sk, n, variants.SWAP_DECODE_CONFIG.block_n, even)[0]
                    assert n_parts <= variants.swap_decode_merge_build(d, v.config.block_m)[0], (group, pairs, sk)
                    merged.add(group)
                reached.add(group)
    assert reached == ({1, 2, 4, 7, 8, 9, 12, 16} if d in (64, 128) else set()), reached
    assert merged >= ({9, 12, 16} if d in (64, 128) else set()), merged


def test_swap_decode_switch_off(monkeypatch):
    """With the switch off (the default in session 54's end state) no call takes the kernel."""
    monkeypatch.setattr(variants, "SWAP_DECODE", False)
    assert variants.swap_decode_parts(128, 1, 32, 8, 65536, 132) == 0


@pytest.mark.parametrize("d,n_parts,split", [(128, 8, 0), (128, 15, 0), (128, 16, 8), (128, 32, 8), (128, 33, 0),
                                              (64, 8, 0), (64, 16, 16), (64, 32, 16), (64, 64, 16), (64, 65, 0),
                                              (96, 32, 0), (256, 16, 0)])
def test_swap_decode_split_rule(d, n_parts, split, monkeypatch):
    """(Session 58.) The merged calls whose merge is spread over slices (attn_decode_sm90_split): from
    SWAP_DECODE_SPLIT_MIN_PARTS = 16 parts (at 8, every program a slice's, it lost: call 4) to the merged build's
    SWAP_DECODE_MERGE_PARTS; 8 slices at D=128, 16 at D=64; none with SWAP_DECODE_MERGE off."""
    monkeypatch.setattr(variants, "SWAP_DECODE_MERGE", True)
    assert variants.swap_decode_split(d, n_parts) == split
    monkeypatch.setattr(variants, "SWAP_DECODE_MERGE", False)
    assert variants.swap_decode_split(d, n_parts) == 0


@pytest.mark.parametrize("d", [64, 128])
def test_split_launch_is_cooperative_and_checks_its_parts(d):
    """launch_args(split=...) (offline, CPU placeholders): attn_decode_sm90_split's launch is cooperative (its slices'
    programs wait for every part: the driver must run the whole grid at once or refuse it), carries SPLIT and the
    head dim's WARP_ROWS, and refuses fewer parts than slices or more than the build merges, naming the parts."""
    from dhpfa.kernels import sm90_decode
    split = variants.SWAP_DECODE_SPLIT[d]

    def args(parts):
        n, _ = sm90_decode.decode_parts(parts * 128, parts, 128)
        q = torch.empty(1, 1, 16, d, dtype=torch.bfloat16)
        k = torch.empty(1, parts * 128, 2, d, dtype=torch.bfloat16)
        merge = (torch.empty_like(q), torch.empty(16, 1), torch.empty(2 * n, dtype=torch.int64))
        return sm90_decode.launch_args(q, k, k, torch.empty(n, 1, 16, d), torch.empty(n, 16, 1), 0.1, parts,
                                       merge=merge, split=split)
    grid, _, kw = args(32)
    assert grid == (32, 2) and kw["launch_cooperative_grid"] is True and kw["SPLIT"] == split
    assert kw["WARP_ROWS"] == variants.SWAP_DECODE_SPLIT_WARP_ROWS[d] and "CHUNK" not in kw
    for parts in (split - 1, variants.SWAP_DECODE_MERGE_PARTS[d] + 1):
        with pytest.raises(ValueError, match="parts"):
            args(parts)
    # the audited binaries' compile options: the split builds' launches cooperative, the others' not
    from dhpfa.audit import variant_launch
    from dhpfa.audit.compile import _source_and_key
    for v in variants.decode_variants():
        if v.head_dim == d:
            coop = _source_and_key(*variant_launch(v))[1].launch_cooperative_grid
            assert coop == (variants.decode_base_kernel(v.kernel) == variants.SWAP_DECODE_SPLIT_KERNEL), v.name


def test_decode_parts_cover_the_keys_in_whole_blocks():
    """decode_parts: at most the parts asked for, each a whole number of blocks with at least one key, together every
    key; fewer where the keys have fewer blocks. Session 54's form (even=False): parts of `per` keys from part x per.
    The even form (session 60): min(parts, blocks) parts of nb // n blocks, the last nb % n one block longer, as the
    kernels' _run_part takes them from part_keys' KEYS_PER_PART (mirrored here), so the parts asked for run at every
    key count (4,097 keys: 16 parts of 2-3 blocks, not 11 of 3), none longer than `per` keys."""
    from dhpfa.kernels import sm90_decode
    assert sm90_decode.decode_parts(4097, 16, 128, even=True) == (16, 384)
    assert sm90_decode.decode_parts(4097, 16, 128) == (11, 384)
    for sk in (1, 127, 128, 129, 2049, 4097, 8193, 16384, 20001, 65536):
        for parts in (1, 8, 16, 64):
            for bn in (64, 128):
                for even in (False, True):
                    n, per = sm90_decode.decode_parts(sk, parts, bn, even)
                    nb = -(-sk // bn)
                    assert per % bn == 0 and 1 <= n <= parts and (n - 1) * per < sk <= n * per or even, (sk, parts)
                    assert n == min(parts, nb) or not even, (sk, parts, bn, n, per)
                    enc = sm90_decode.part_keys(sk, parts, bn, even)
                    r, short = enc % bn, enc - enc % bn  # _run_part's arithmetic
                    assert short % bn == 0 and short > 0 and (r == 0 or even), (sk, parts, bn, enc)
                    ends = [min(p * short + max(p - (n - r), 0) * bn, sk) for p in range(n + 1)]
                    sizes = [e - s for s, e in zip(ends, ends[1:])]
                    assert ends[0] == 0 and ends[-1] == sk and min(sizes) >= 1 and max(sizes) <= per, (sk, parts, bn)
                    blocks = [-(-x // bn) for x in sizes]
                    if even:
                        assert max(blocks) - min(blocks) <= 1 and max(blocks) * bn == per, (sk, parts, bn, blocks)
                        assert blocks == sorted(blocks), (sk, parts, bn, blocks)  # the longer parts last
                    else:
                        assert sizes[:-1] == [per] * (n - 1), (sk, parts, bn, sizes)


@pytest.mark.parametrize("sk,parts,bn", [(4097, 16, 128), (2049, 8, 128), (4096, 16, 128), (65537, 64, 128),
                                         (129, 16, 128), (1, 4, 128), (20001, 32, 128), (30001, 64, 64)])
def test_even_parts_launch_arguments(sk, parts, bn):
    """launch_args (offline, CPU placeholders): the grid has decode_parts' count in either form and KEYS_PER_PART is
    part_keys' (the even parts: the shorter parts' keys plus the count of longer ones; session 54's form: the parts'
    keys); one binary serves both (no constexpr differs)."""
    from dhpfa.kernels import sm90_decode
    q = torch.empty(1, 1, 16, 128, dtype=torch.bfloat16)
    k = torch.empty(1, sk, 2, 128, dtype=torch.bfloat16)
    launches = []
    for even in (True, False):
        n, _ = sm90_decode.decode_parts(sk, parts, bn, even)
        grid, args, kw = sm90_decode.launch_args(q, k, k, torch.empty(n, 1, 16, 128), torch.empty(n, 16, 1), 0.1, parts,
                                                 block_n=bn, even=even)
        assert grid == (n, 2) and args[10] == sm90_decode.part_keys(sk, parts, bn, even)  # (KEYS_PER_PART)
        launches.append(kw)
    assert launches[0] == launches[1]


@pytest.mark.parametrize("pairs,parts,sm,even", [(4, 16, 132, True), (2, 32, 132, True), (8, 16, 132, False),
                                                 (4, 32, 132, False), (16, 4, 132, True), (16, 8, 132, False),
                                                 (4, 16, 114, False), (4, 8, 66, True)])
def test_swap_decode_even_rule(pairs, parts, sm, even, monkeypatch):
    """(Session 60.) The even parts where pairs x parts is at most half the SMs (calls 3-4: 4 pairs x 16 at D=128
    x1.11-1.18; grids that fill the SMs read even or behind); none with SWAP_DECODE_EVEN off."""
    monkeypatch.setattr(variants, "SWAP_DECODE_EVEN", True)
    assert variants.swap_decode_even(pairs, parts, sm) == even
    monkeypatch.setattr(variants, "SWAP_DECODE_EVEN", False)
    assert not variants.swap_decode_even(pairs, parts, sm)


SASS = """
import json, torch
from dhpfa.audit import _audit_batch
from dhpfa.audit import compile as C
from dhpfa.audit import variant_launch
from dhpfa.kernels import variants
rows = []
for v in variants.decode_variants():
    (r,) = _audit_batch([v])
    text = C.sass_text(C.compile_offline(*variant_launch(v)).cubin)
    ops = [l.split(";")[0].split("*/")[-1].strip() for l in text.splitlines() if "*/" in l]
    rows.append(dict(name=v.name, block_n=v.config.block_n, nq=v.config.block_m, units=variants.stream_pair_units(v),
                     ok=r.ok, n16=sum("HGMMA.64x16x16" in o for o in ops),
                     findings=[str(x) for x in r.reports if not x.ok],
                     regs=r.resources["regs"],
                     stack=r.resources["stack"], hgmma=sum("HGMMA" in o for o in ops),
                     tnspa=sum("HGMMA" in o and ".tnspA" in o for o in ops),
                     tnspb=sum("HGMMA" in o and ".tnspB" in o for o in ops),
                     n8=sum("HGMMA.64x8x16" in o for o in ops), ex2=sum("MUFU.EX2" in o for o in ops),
                     calls=sum(o.split()[0] in ("CALL.REL", "CALL.ABS", "CALL") for o in ops if o),
                     cas=sum("ATOMG.E.CAS" in o for o in ops), ldgsts=sum("LDGSTS" in o for o in ops),
                     membar_sc=sum("MEMBAR.SC.GPU" in o for o in ops), membar_all=sum("MEMBAR.ALL.GPU" in o for o in ops),
                     red_and=sum("BAR.RED.AND" in o for o in ops), red_or=sum("BAR.RED.OR" in o for o in ops),
                     strong_ld=sum("LDG.E.64.STRONG.GPU" in o for o in ops), ballots=sum("VOTE.ANY R" in o for o in ops),
                     atoms=sum(o.split()[1 if o.startswith("@") else 0].startswith(("ATOM", "RED")) for o in ops if o),
                     spills=sum(o.split()[0] in ("STL", "LDL") for o in ops if o)))
print(json.dumps(rows))
"""


def _decode_build_counts():
    """(nq16, kv): how many NQ = 16 decode builds (session 66: the split, stream and whole-pair kernels' at groups of
    9-16; session 67: the merged ones too) and KV-cache builds (session 67: the merged and split kernels' at NQ = 8;
    session 68: the whole-pair builds'; session 69: their paged forms, the stream builds' and theirs, the merged and
    split builds' paged forms) decode_variants() should hold, from the build tables and flags (each a bf16 and an fp16
    build)."""
    nq16 = 2 * len(variants.SWAP_DECODE_MERGE_DIMS) + 2 * len(variants.SWAP_DECODE_SPLIT) + \
        2 * len(variants.SWAP_DECODE_STREAM) + 2 * len(variants.SWAP_DECODE_WHOLE)
    paged = variants.SWAP_DECODE_KV_PAGED
    kv = 2 * len(variants.SWAP_DECODE_MERGE_DIMS) + 2 * len(variants.SWAP_DECODE_SPLIT) + \
        2 * len(variants.SWAP_DECODE_WHOLE) * (1 + paged) + \
        2 * len(variants.SWAP_DECODE_STREAM) * variants.SWAP_DECODE_KV_STREAM * \
        (1 + (paged and variants.SWAP_DECODE_KV_PAGED_STREAM)) + \
        (2 * len(variants.SWAP_DECODE_MERGE_DIMS) + 2 * len(variants.SWAP_DECODE_SPLIT)) * \
        (paged and variants.SWAP_DECODE_KV_PAGED_PARTS)
    return nq16, kv


def test_decode_builds_compile_to_small_n_gemms_and_audit_clean():
    """Offline (sm_90a): every decode build (bf16 / fp16, D = 64 / 128; the merged ones too) audits clean; its GEMMs are
    m64n8k16 (the query heads on N; m64n16k16 in the NQ = 16 builds of session 66: the split, stream and whole-pair
    ones, and session 67's merged ones), the score GEMM reading K and Q^T as stored, the PV GEMM V transposed (.tnspA)
    against P kept keys-contiguous (no .tnspB: session 54 call 4's N-major P^T gave wrong outputs at 128-key blocks);
    no spills, no calls (no IEEE division or sqrt slow path); no atomics (the merged builds' hand-over is a release
    store, fences and loads); the merged builds copy the parts' states by cp.async (LDGSTS) where
    variants.SWAP_DECODE_MERGE_ASYNC says so (session 57), the others hold none. The merged builds' arrival: one SC
    fence and one MEMBAR.ALL.GPU (the release store's); where variants.SWAP_DECODE_MERGE_WIDE says so (session 58) a
    thread a done-word (one strong load, read with acquire: no second MEMBAR.ALL.GPU) and an and-reduction barrier,
    else thread 0 reads the MAX_PARTS words (strong loads) and fences, and an or-reduction barrier. The split builds
    (session 58, variants.SWAP_DECODE_SPLIT): the release store, no SC fence, the poll's load and and-reduction (twice:
    before its loop and in it), no cp.async. The stream builds (session 61; the TAIL form from session 62): one release
    fence (MEMBAR.ALL.GPU) before relaxed stores, one SC fence, a lane a done-word (one strong load) and one warp ballot,
    each pair's verdict then anded over the warps by an and-reduction barrier (session 68: the warps' ballots can
    differ), no cp.async; the whole-pair stream builds (session 63, variants.SWAP_DECODE_WHOLE:
    64-key blocks at D=128) with half the score GEMMs and half the PV GEMMs' k-steps where blocks are 64 keys, and
    (session 64, PAIR_UNITS: variants.stream_pair_units) no arrival: no fence, no done-word load, no ballot."""
    rows = _offline_json(SASS)
    nq16, kv = _decode_build_counts()
    assert len(rows) == 4 + nq16 + nq16 + kv, rows
    assert sum(r["name"].split("-")[0].endswith(("_kv", "_kvp")) for r in rows) == kv, rows
    assert sum(r["nq"] == 16 for r in rows) == nq16 and all(r["nq"] in (8, 16) for r in rows), rows
    whole = 3 + variants.SWAP_DECODE_KV_PAGED  # the whole-pair builds: NQ = 8 and 16, KV (session 69: and paged)
    assert sum(r["block_n"] == 64 for r in rows) == 2 * whole, rows  # (D=128's)
    assert sum(r["units"] for r in rows) == 2 * whole * len(variants.SWAP_DECODE_WHOLE), rows
    for r in rows:
        merged = "_merged" in r["name"]
        split = "_split" in r["name"]
        stream = "_stream" in r["name"]
        assert r["cas"] == r["atoms"] == 0, r
        assert r["ok"] and not r["findings"], r
        d, bn = int(r["name"].split("-d")[1].split("-")[0]), r["block_n"]
        # S^T and O^T: (BLOCK_N keys / 64) x (D / 16) k-steps and (D / 64) x (BLOCK_N / 16): 2 x D / 16 + D / 64 x 8
        # at 128-key blocks
        assert r["hgmma"] == r["n8" if r["nq"] == 8 else "n16"] == bn // 64 * d // 16 + d // 64 * bn // 16, r
        assert r["tnspa"] == d // 64 * bn // 16 and r["tnspb"] == 0, r
        assert r["stack"] == 0 and r["spills"] == 0 and r["calls"] == 0 and r["ex2"] > 0, r
        assert (r["ldgsts"] > 0) == (merged and variants.SWAP_DECODE_MERGE_ASYNC[d]), r
        assert r["ballots"] == int(stream and not r["units"]), r
        if r["units"]:  # (PAIR_UNITS, session 64) no arrival: no fence, no done-word read
            assert (r["membar_sc"], r["membar_all"], r["red_and"], r["red_or"], r["strong_ld"]) == (0, 0, 0, 0, 0), r
            assert 3 * 128 * r["regs"] <= 65536, r  # (three programs an SM, as the whole-pair rules assume; NQ = 16 too)
        elif stream:  # the release fence, the SC fence (two MEMBAR.SC.GPU), a lane a word, the ballot, and (session
            # 68) each pair's verdict anded over the warps (an and-reduction barrier in the merge loop)
            assert (r["membar_sc"], r["membar_all"], r["red_and"], r["red_or"], r["strong_ld"]) == (2, 1, 1, 0, 1), r
        elif split:  # the release store (one MEMBAR.ALL.GPU), no SC fence; the poll (before its loop and in it)
            assert (r["membar_sc"], r["membar_all"], r["red_and"], r["red_or"], r["strong_ld"]) == (0, 1, 2, 0, 2), r
        elif not merged:
            assert r["membar_sc"] == r["membar_all"] == r["red_and"] == r["red_or"] == r["strong_ld"] == 0, r
        elif variants.SWAP_DECODE_MERGE_WIDE[d]:
            assert (r["membar_sc"], r["membar_all"], r["red_and"], r["red_or"], r["strong_ld"]) == (1, 1, 1, 0, 1), r
        else:
            assert (r["membar_sc"], r["membar_all"], r["red_and"], r["red_or"]) == (1, 2, 0, 1), r
            assert r["strong_ld"] == variants.swap_decode_merge_build(d, r["nq"])[0], r


def _ref(q, k, v):
    b, _, h, d = q.shape
    hk = k.shape[2]
    s = torch.einsum("bkgd,bskd->bkgs", q.double().view(b, hk, h // hk, d), k.double()) / d ** 0.5
    return torch.einsum("bkgs,bskd->bkgd", torch.softmax(s, -1), v.double()).reshape(b, 1, h, d), \
        torch.logsumexp(s, -1).reshape(b, h, 1)


@pytest.mark.gpu
@pytest.mark.parametrize("parts,block_n,stages", [(16, 128, 3), (8, 128, 2), (64, 64, 3), (33, 64, 6), (1, 128, 3)])
@pytest.mark.parametrize("b,h,hk,sk,d,dtype", [(1, 32, 8, 1, 128, torch.bfloat16), (2, 32, 8, 4097, 128, torch.float16),
                                                (1, 16, 2, 30001, 64, torch.bfloat16), (3, 32, 1, 777, 128,
                                                                                        torch.bfloat16)])
@pytest.mark.parametrize("even", [False, True], ids=["equal", "even"])
def test_decode_launcher_matches_float64(parts, block_n, stages, b, h, hk, sk, d, dtype, even):
    """The experiment's launcher (sm90_decode.decode) over ring shapes and part counts, MQA (32 query heads: NQ = 32)
    included, in both part forms (session 60's even parts too): out and lse against float64 on poisoned workspaces and
    outputs, and bitwise the same on a repeat."""
    from dhpfa.kernels import sm90_decode
    g = torch.Generator(device="cuda").manual_seed(sk + d + parts)
    q = torch.randn(b, 1, h, d, device="cuda", dtype=dtype, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g) for _ in range(2))
    out, lse = sm90_decode.decode(q, k, v, parts=parts, block_n=block_n, stages=stages, poison=True, even=even)
    ref, ref_lse = _ref(q, k, v)
    err = float((out.double() - ref).norm() / ref.norm())
    assert err < {torch.bfloat16: 1e-2, torch.float16: 2e-3}[dtype], err
    assert torch.allclose(lse.double(), ref_lse, rtol=1e-3, atol=1e-3)
    out2, lse2 = sm90_decode.decode(q, k, v, parts=parts, block_n=block_n, stages=stages, even=even)
    assert torch.equal(out, out2) and torch.equal(lse, lse2)


ONE_BINARY = """
import json, torch
from dhpfa.audit import variant_launch
from dhpfa.audit.compile import compile_offline
from dhpfa.kernels import dispatch, sm90_decode, variants
out = []
def grp(h, hk):  # (the NQ = 16 builds, session 66: groups of 9-16 in place of 2-8)
    return (h, hk) if v.config.block_m == 8 else (hk * (16 if h // hk in (4, 8) else 9 + h // hk), hk)
for v in variants.decode_variants():
    audited = compile_offline(*variant_launch(v)).sha256
    other = []
    if variants.decode_base_kernel(v.kernel) == variants.SWAP_DECODE_STREAM_KERNEL:
        units = variants.stream_pair_units(v)
        kvs = v.kernel != variants.SWAP_DECODE_STREAM_KERNEL  # (session 68: the whole-pair KV-cache form's rows)
        for b, h, hk, sk, n_prog in ((34, 32, 4, 16384, 132), (17, 64, 8, 2049, 264), (3, 40, 5, 1, 7),
                                     (9, 32, 4, 1000, 132), (34, 32, 4, 1024, 136), (99, 16, 4, 777, 396),
                                     (128, 32, 8, 1024, 264)):
            h, hk = grp(h, hk)
            q = torch.empty(b, 1, h, v.head_dim, dtype=v.dtype)
            k = torch.empty(b, sk, hk, v.head_dim, dtype=v.dtype)
            table, cap = None, sk
            if v.kernel in variants.SWAP_DECODE_KV_PAGED_KERNELS.values():  # (session 69: pages of 256 rows; the
                # flat schedule over their logical capacity)
                cols = -(-sk // 256)
                k = torch.empty(b * cols, 256, hk, v.head_dim, dtype=v.dtype)
                table, cap = torch.empty(b, cols, dtype=torch.int32), 256 * cols
            n = variants.SWAP_DECODE_STREAM_PARTS
            if n_prog > b * hk or sm90_decode.stream_pieces(b, hk, cap, n_prog, v.config.block_n, units) > n or \
                    (not units and sm90_decode.stream_most_pairs(b, hk, cap, n_prog, v.config.block_n) > 32 // n):
                continue  # (not a schedule of this build)
            _, args, kwargs = sm90_decode.stream_launch_args(
                q, k, k, torch.empty(n, b, h, v.head_dim), torch.empty(n, h, b), torch.empty_like(q),
                torch.empty(h, b), torch.empty(b * hk * n, dtype=torch.int64), 0.1, n_prog, n, v.config.block_n,
                v.config.num_stages, v.config.num_warps, pair_units=units,
                bounds=torch.empty(2 * b, dtype=torch.int32) if kvs else None, block_table=table)
            if compile_offline(dispatch.kernel_fn(v.kernel), args, kwargs).sha256 != audited:
                other.append([b, h, hk, sk, n_prog])
        out.append([v.name, other])
        continue
    base = variants.decode_base_kernel(v.kernel)
    kv = base != v.kernel  # (the KV-cache forms, session 67: their key rows)
    split = base == variants.SWAP_DECODE_SPLIT_KERNEL
    # the most parts the build takes (the merged build's at its NQ: session 67)
    most = variants.swap_decode_merge_build(v.head_dim, v.config.block_m)[0] \
        if base == variants.SWAP_DECODE_MERGED_KERNEL else variants.SWAP_DECODE_MERGE_PARTS.get(v.head_dim, 16)
    for b, h, hk, sk, parts in ((1, 32, 8, 16384, 16), (3, 40, 5, 4099, 8), (1, 16, 2, 1, 1), (2, 14, 7, 65536, 16),
                                (16, 16, 8, 333, 8), (1, 16, 2, 65541, most)):
        h, hk = grp(h, hk)
        q = torch.empty(b, 1, h, v.head_dim, dtype=v.dtype)
        k = torch.empty(b, sk, hk, v.head_dim, dtype=v.dtype)
        table = None
        if v.kernel in variants.SWAP_DECODE_KV_PAGED_KERNELS.values():  # (session 69: pages of 256 rows)
            cols = -(-sk // 256)
            k = torch.empty(b * cols, 256, hk, v.head_dim, dtype=v.dtype)
            table = torch.empty(b, cols, dtype=torch.int32)
        for even in (False, True):
            n, _ = sm90_decode.decode_parts(sk, parts, v.config.block_n, even)
            n = parts if kv else n  # (the KV-cache forms: a grid of the parts asked for)
            sp = variants.SWAP_DECODE_SPLIT[v.head_dim] if split else 0
            if n < sp:  # (the split build takes from SWAP_DECODE_SPLIT parts)
                continue
            merge = (torch.empty_like(q), torch.empty(h, b), torch.empty(b * hk * n, dtype=torch.int64)) \
                if v.kernel != variants.SWAP_DECODE_KERNEL else None
            _, args, kwargs = sm90_decode.launch_args(q, k, k, torch.empty(n, b, h, v.head_dim), torch.empty(n, h, b),
                                                      0.1, parts, v.config.block_n, v.config.num_stages,
                                                      v.config.num_warps, merge=merge, split=sp, even=even and not kv,
                                                      bounds=torch.empty(2 * b, dtype=torch.int32) if kv else None,
                                                      block_table=table)
            if compile_offline(dispatch.kernel_fn(v.kernel), args, kwargs).sha256 != audited:
                other.append([b, h, hk, sk, parts, even])
    out.append([v.name, other])
print(json.dumps(out))
"""


def test_every_decode_shape_launches_the_audited_binary():
    """Group size, batch, heads, keys and parts are arguments the JIT does not specialise (DECODE_SHAPE_ARGS): calls of
    one key, one part, 2-8 heads a group (the NQ = 16 builds: 9-16), odd key counts, either part form launch the binary
    the audit read; the stream builds at any program count too (the whole-pair ones, session 63, at a program a pair
    too). Offline."""
    rows = _offline_json(ONE_BINARY)
    nq16, kv = _decode_build_counts()
    assert len(rows) == len(variants.decode_variants()) == 4 + 2 * nq16 + kv and all(not o for _, o in rows), rows


# a stand-in compiled kernel whose launch function records what it is launched with
STANDIN = """
import json, torch
from dhpfa.kernels import dispatch, sm90_decode, triton_fwd, variants
dispatch._current_stream = lambda index: 0
calls = []

class Run:
    def __call__(self, *a):
        calls.append(a[9:])  # (grid x3, stream, function, packed metadata, hooks x3), then the arguments

class Kernel:
    packed_metadata, function, run = None, None, Run()
"""

KEPT = STANDIN + """
def flat(args, kwargs_tail=()):
    out = []
    for a in list(args) + list(kwargs_tail):
        if isinstance(a, torch.Tensor):
            out.append(["t", a.data_ptr()])
        elif hasattr(a, "base"):
            out.append(["d", a.base.data_ptr(), list(a.shape), list(a.strides)])
        else:
            out.append(["c", a])
    return out

def tensors(seed):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(2, 1, 32, 128, generator=g).to(torch.bfloat16)
    k, v = (torch.randn(2, 3000, 8, 128, generator=g).to(torch.bfloat16) for _ in range(2))
    ws_o, ws_l = torch.empty(8, 2, 32, 128), torch.empty(8, 32, 2)
    return q, k, v, ws_o, ws_l

res = []
first = tensors(0)
grid, args, kwargs = sm90_decode.launch_args(*first, 0.088, 8)
tail = [kwargs[p.name] for p in sm90_decode.attn_decode_sm90.params[len(args):]]
launcher = dispatch._make_launcher(sm90_decode.attn_decode_sm90, Kernel(), grid, args, kwargs, first, 1.0,
                                   constant_floats=True)
dec = launcher

def recorded(call):
    return [["d", a.base.data_ptr(), list(a.shape), list(a.strides)] if isinstance(a, dispatch._Desc) else
            ["t", a] if isinstance(a, int) and not isinstance(a, bool) and a > 1 << 20 else ["c", a] for a in call]

for seed in (1, 2):
    new = tensors(seed)
    launcher(new, 1.0, 0)
    _, want, _ = sm90_decode.launch_args(*new, 0.088, 8)
    res.append(recorded(calls[-1]) == flat(want, tail))
# the combine's launch (its template path needs Triton's C launch function: here through run_compiled)
q, k, v, ws_o, ws_l = first
out = torch.empty(2, 1, 32, 128, dtype=torch.bfloat16); lse = torch.empty(32, 2); cu = torch.arange(3, dtype=torch.int32)
cfg = variants.varlen_combine_variant(torch.bfloat16, 128, group=True, splits=8).config
o_rows = out[:, 0]
grid, args, kwargs = triton_fwd.varlen_combine_args(q[:, 0], o_rows, lse, cu, 1, 4, 8, (ws_o, ws_l), cfg)
launcher = dispatch._make_launcher(triton_fwd.attn_varlen_combine, Kernel(), grid, args, kwargs,
                                   (ws_o, ws_l, o_rows, lse, cu), 1.0, constant_floats=True)
out2, lse2, ws2, wl2 = torch.empty_like(out), torch.empty_like(lse), torch.empty_like(ws_o), torch.empty_like(ws_l)
launcher((ws2, wl2, out2[:, 0], lse2, cu), 1.0, 0)
_, want, _ = triton_fwd.varlen_combine_args(q[:, 0], out2[:, 0], lse2, cu, 1, 4, 8, (ws2, wl2), cfg)
got = calls[-1][:len(want)]
res.append([a if not isinstance(a, torch.Tensor) else a.data_ptr() for a in want] == list(got))
# the API's later calls: both launchers as one (sm90_decode.Kept), the workspace one allocation whose parts, out and
# lse go as base addresses
made, real_empty = [], torch.empty

def empty(*a, **kw):
    made.append(real_empty(*a, **kw))
    return made[-1]

torch.empty = empty
kept = sm90_decode.Kept(dec, launcher, ws_o.numel(), ws_l.numel())
q3, k3, v3, _, _ = tensors(3)
out3, lse3 = real_empty(2, 1, 32, 128, dtype=torch.bfloat16), real_empty(32, 2)
n, m = len(calls), len(made)
kept(q3, k3, v3, out3, lse3, cu, 0)
(ws,) = made[m:]
wo, wl = ws[:ws_o.numel()].view(ws_o.shape), ws[kept.l_offset:].view(ws_l.shape)
res.append(len(calls) == n + 2 and wl.data_ptr() % 16 == 0 and kept.l_offset >= ws_o.numel()
           and ws.numel() == kept.l_offset + ws_l.numel())
_, want, _ = sm90_decode.launch_args(q3, k3, v3, wo, wl, 0.088, 8)
res.append(recorded(calls[n]) == flat(want, tail))
_, want, _ = triton_fwd.varlen_combine_args(q3[:, 0], out3[:, 0], lse3, cu, 1, 4, 8, (wo, wl), cfg)
res.append([a if not isinstance(a, torch.Tensor) else a.data_ptr() for a in want] == list(calls[n + 1][:len(want)]))
print(json.dumps(res))
"""


def test_kept_launchers_rebuild_the_jit_launchs_arguments():
    """sm90_decode.forward launches both kernels through launchers kept by public metadata (dispatch._launch_kept).
    Offline, with a stand-in compiled kernel that records what it is launched with: a launcher made from one call's
    JIT arguments, called with new tensors (q, k, v, the workspace; for the combine the workspace, out's rows, lse),
    passes exactly the arguments the JIT launch of those tensors would (descriptors over the new bases with the same
    shapes and strides, the new pointers, the same constants); and sm90_decode.Kept (the API's later calls: both
    launchers, one workspace allocation, bases passed as ints) passes what the JIT launches of its workspace's views
    would."""
    assert _offline_json(KEPT) == [True] * 6


MERGED_KEPT = STANDIN + """
def recorded(call):
    return [["d", a.base.data_ptr(), list(a.shape), list(a.strides)] if isinstance(a, dispatch._Desc) else
            ["t", a] if isinstance(a, int) and not isinstance(a, bool) and 1 << 20 < a < 1 << 56 else ["c", a]
            for a in call]

def flat(args, tail):
    return [["t", a.data_ptr()] if isinstance(a, torch.Tensor) else
            ["d", a.base.data_ptr(), list(a.shape), list(a.strides)] if hasattr(a, "base") else ["c", a]
            for a in list(args) + list(tail)]

def tensors(seed):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(2, 1, 32, 128, generator=g).to(torch.bfloat16)
    k, v = (torch.randn(2, 3000, 8, 128, generator=g).to(torch.bfloat16) for _ in range(2))
    return q, k, v, torch.empty(8, 2, 32, 128), torch.empty(8, 32, 2), torch.empty_like(q), torch.empty(32, 2), \
        torch.empty(2 * 8 * 8, dtype=torch.int64)

first = tensors(0)
q, k, v, ws_o, ws_l, out, lse, flags = first
grid, args, kwargs = sm90_decode.launch_args(q, k, v, ws_o, ws_l, 0.088, 8, merge=(out, lse, flags),
                                             build=(16, 8, False))
fn = sm90_decode.attn_decode_sm90_merged
launcher = dispatch._make_launcher(fn, Kernel(), grid, args, kwargs, first, 1.0, constant_floats=True)
made, real_empty = [], torch.empty

def empty(*a, **kw):
    made.append(real_empty(*a, **kw))
    return made[-1]

torch.empty = empty
kept = sm90_decode.Kept(launcher, None, ws_o.numel(), ws_l.numel(), flags.numel())
res, nonces = [], []
for seed in (1, 2):
    q3, k3, v3, _, _, out3, lse3, _ = tensors(seed)
    n, m = len(calls), len(made)
    kept(q3, k3, v3, out3, lse3, None, 0)
    (ws,) = made[m:]
    wo, wl = ws[:ws_o.numel()].view(ws_o.shape), ws[kept.l_offset:kept.l_offset + ws_l.numel()].view(ws_l.shape)
    fl = ws[kept.f_offset:].view(torch.int64)
    res.append(len(calls) == n + 1 and fl.numel() == flags.numel() and fl.data_ptr() % 16 == 0
               and kept.f_offset >= kept.l_offset + ws_l.numel())
    _, want, wk = sm90_decode.launch_args(q3, k3, v3, wo, wl, 0.088, 8, merge=(out3, lse3, fl), build=(16, 8, False))
    tail = [wk.get(p.name, p.default) for p in fn.params[len(want):]]
    got = recorded(calls[n])
    i = [p.name for p in fn.params].index("NONCE")
    nonces.append(got[i][1])
    got[i] = None
    exp = flat(want, tail)
    exp[i] = None
    res.append(got == exp)
res.append(nonces[0] != nonces[1] and all(x % 2 == 1 and x >= 1 << 62 for x in nonces))
print(json.dumps(res))
"""


def test_merged_kept_launcher_rebuilds_the_jit_arguments():
    """The merged build's kept launch (sm90_decode.Kept with no second launcher; variants.SWAP_DECODE_MERGE): offline,
    with a stand-in compiled kernel, Kept passes for new tensors the arguments the JIT launch of its one workspace
    allocation's views (WS_O, WS_L, the flags past them, 16-byte aligned) would, and a fresh nonce every call."""
    assert _offline_json(MERGED_KEPT) == [True] * 5


# the same check for the stream build (session 61): its launch arguments from stream_launch_args, 20 programs
STREAM_KEPT = MERGED_KEPT
for _old, _new in (("torch.empty(8, 2, 32, 128), torch.empty(8, 32, 2)", "torch.empty(4, 2, 32, 128), torch.empty(4, 32, 2)"),
                   ("torch.empty(2 * 8 * 8, dtype=torch.int64)", "torch.empty(2 * 8 * 4, dtype=torch.int64)"),
                   ("sm90_decode.launch_args(q, k, v, ws_o, ws_l, 0.088, 8, merge=(out, lse, flags),\n"
                    "                                             build=(16, 8, False))",
                    "sm90_decode.stream_launch_args(q, k, v, ws_o, ws_l, out, lse, flags, 0.088, 20)"),
                   ("fn = sm90_decode.attn_decode_sm90_merged", "fn = sm90_decode.attn_decode_sm90_stream"),
                   ("sm90_decode.launch_args(q3, k3, v3, wo, wl, 0.088, 8, merge=(out3, lse3, fl), build=(16, 8, False))",
                    "sm90_decode.stream_launch_args(q3, k3, v3, wo, wl, out3, lse3, fl, 0.088, 20)")):
    assert _old in STREAM_KEPT, _old
    STREAM_KEPT = STREAM_KEPT.replace(_old, _new)


def test_stream_kept_launcher_rebuilds_the_jit_arguments():
    """The stream build's kept launch (sm90_decode.stream_forward's Kept, the API's later calls): offline, with a stand-in
    compiled kernel, Kept passes for new tensors the arguments the JIT launch of its one workspace allocation's views
    would (stream_launch_args: WS_O, WS_L, the flags past them, 16-byte aligned), and a fresh nonce every call."""
    assert _offline_json(STREAM_KEPT) == [True] * 5


# (session 69) the same check for the merged build's paged KV-cache form (prepared, off: SWAP_DECODE_KV_PAGED_PARTS):
# k and v as 12 pages of 256 rows a sequence, the key rows and the block table passed to Kept after the other tensors
PAGED_KEPT = MERGED_KEPT
for _old, _new in (
        ("    k, v = (torch.randn(2, 3000, 8, 128, generator=g).to(torch.bfloat16) for _ in range(2))\n",
         "    k, v = (torch.randn(24, 256, 8, 128, generator=g).to(torch.bfloat16) for _ in range(2))\n"),
        ("        torch.empty(2 * 8 * 8, dtype=torch.int64)\n",
         "        torch.empty(2 * 8 * 8, dtype=torch.int64), torch.tensor([0, 3000, 0, 2999], dtype=torch.int32), \\\n"
         "        torch.randperm(24, generator=g).to(torch.int32).view(2, 12)\n"),
        ("q, k, v, ws_o, ws_l, out, lse, flags = first", "q, k, v, ws_o, ws_l, out, lse, flags, bounds, table = first"),
        ("merge=(out, lse, flags),\n                                             build=(16, 8, False))",
         "merge=(out, lse, flags),\n                                             build=(16, 8, False), bounds=bounds, "
         "block_table=table)"),
        ("    q3, k3, v3, _, _, out3, lse3, _ = tensors(seed)", "    q3, k3, v3, _, _, out3, lse3, _, b3, t3 = tensors(seed)"),
        ("    kept(q3, k3, v3, out3, lse3, None, 0)", "    kept(q3, k3, v3, out3, lse3, None, 0, b3, t3)"),
        ("merge=(out3, lse3, fl), build=(16, 8, False))", "merge=(out3, lse3, fl), build=(16, 8, False), bounds=b3,\n"
         "                                           block_table=t3)"),
        # (the kept launch passes the key rows and the table, trailing keyword arguments, as the tensors it was given:
        # Triton's launcher reads their pointers)
        ("1 << 20 < a < 1 << 56 else [\"c\", a]", "1 << 20 < a < 1 << 56 else [\"t\", a.data_ptr()] if "
         "isinstance(a, torch.Tensor) else [\"c\", a]")):
    assert PAGED_KEPT.count(_old) == 1, _old
    PAGED_KEPT = PAGED_KEPT.replace(_old, _new)


def test_paged_kept_launcher_rebuilds_the_jit_arguments():
    """(Session 69, offline.) The paged KV-cache forms' Kept (not yet run on a GPU: the paged forms ship off) takes the
    key rows and then the block table, and its launch of the merged build's paged form passes for new tensors the
    arguments the JIT launch would (BOUNDS and BLOCK_TABLE the new tensors, the table's stride, columns and page shift
    as constants); api._SwapKv passes the plan's block table (its eighth argument) to it."""
    assert _offline_json(PAGED_KEPT) == [True] * 5
    from dhpfa import api
    got = []
    api._SwapKv(lambda *a: got.append(a)).launcher(("q", "k", "v", "o", "l", "cu", "bounds", "table", "ws"), 1.0, 0)
    assert got == [("q", "k", "v", "o", "l", None, 0, "bounds", "table")]


@pytest.mark.gpu
@pytest.mark.parametrize("b,h,hk,sk,d,n_prog", [(34, 32, 4, 4097, 128, 132), (17, 64, 8, 2050, 64, 264),
                                                (9, 32, 4, 1000, 128, 132), (100, 32, 4, 1, 64, 132),
                                                (5, 28, 4, 3001, 64, 7), (34, 32, 4, 129, 128, 132),
                                                (40, 32, 4, 20000, 64, 264), (3, 16, 8, 777, 128, 5)])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
def test_stream_launcher_matches_float64(b, h, hk, sk, d, n_prog, dtype):
    """attn_decode_sm90_stream (sm90_decode.stream_decode) over schedules of 1-4 pieces a pair, pairs of one key, one
    block, odd key counts, two programs an SM at D=64, groups of 2-8: out and lse against float64 on
    poisoned workspaces and outputs, bitwise the same on a repeat and as session 61's first form (tail=False: a
    release and a round of reads a pair, where the shipped TAIL build reads every pair's words in one round and stores
    pairs of one piece directly)."""
    _check_stream_launcher(b, h, hk, sk, d, n_prog, dtype, sk + d + n_prog)


def _check_stream_launcher(b, h, hk, sk, d, n_prog, dtype, seed, config=None, pair_units=False):
    """sm90_decode.stream_decode in n_prog programs on the build of `config` (None: the stream build's; pair_units: its
    PAIR_UNITS schedule) at (b, h, hk, sk, d): out and lse against float64 on poisoned workspaces and outputs, no
    head's output another's, bitwise the same on a repeat and as session 61's first form (tail=False) on the same ring
    (with pair_units that form at a program a pair: each pair's blocks in the same order in one program)."""
    from dhpfa.kernels import sm90_decode
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(b, 1, h, d, device="cuda", dtype=dtype, generator=g)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=dtype, generator=g) for _ in range(2))
    out, lse = sm90_decode.stream_decode(q, k, v, n_prog, poison=True, config=config, pair_units=pair_units)
    ref, ref_lse = _ref(q, k, v)
    err = float((out.double() - ref).norm() / ref.norm())
    assert err < {torch.bfloat16: 1e-2, torch.float16: 2e-3}[dtype], err
    per_head = (out.double() - ref).norm(dim=-1) / ref.norm(dim=-1)
    assert float(per_head.max()) < {torch.bfloat16: 5e-2, torch.float16: 1e-2}[dtype], "a head's output is another's"
    assert torch.allclose(lse.double(), ref_lse, rtol=1e-3, atol=1e-3)
    out2, lse2 = sm90_decode.stream_decode(q, k, v, n_prog, config=config, pair_units=pair_units)
    assert torch.equal(out, out2) and torch.equal(lse, lse2)
    out3, lse3 = sm90_decode.stream_decode(q, k, v, b * hk if pair_units else n_prog, poison=True, tail=False,
                                           config=config)
    assert torch.equal(out, out3) and torch.equal(lse, lse3)


@pytest.mark.gpu
@pytest.mark.parametrize("b,h,hk,sk,d,n_prog", [(34, 32, 4, 1024, 128, 136), (66, 16, 4, 2047, 64, 264),
                                                (99, 32, 4, 129, 128, 396), (40, 8, 4, 1, 128, 160),
                                                (35, 32, 4, 4000, 64, 140), (17, 64, 8, 3001, 128, 136),
                                                (64, 32, 8, 1000, 128, 264), (17, 32, 4, 3001, 64, 50),
                                                (9, 16, 8, 129, 128, 7), (30, 32, 4, 700, 128, 40)])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
def test_stream_whole_build_matches_float64(b, h, hk, sk, d, n_prog, dtype):
    """The whole-pair build (session 63: variants.SWAP_DECODE_WHOLE's ring, WHOLE_SKIP's programs with no arrival; from
    session 64 its PAIR_UNITS schedule, at program counts that divide the pairs or not): out and lse against float64 on
    poisoned workspaces and outputs, bitwise the same on a repeat and as session 61's first form (tail=False: every
    piece's done-word released and read) at a program a pair on the same ring."""
    _check_stream_launcher(b, h, hk, sk, d, n_prog, dtype, sk + d + b, variants.SWAP_DECODE_WHOLE[d],
                           pair_units=variants.SWAP_DECODE_WHOLE_UNITS)


TAIL_BUILD = """
import json, torch
from dhpfa.audit import audit_triton
from dhpfa.audit import compile as C
from dhpfa.kernels import sm90_decode
q = torch.empty(2, 1, 8, 128, dtype=torch.bfloat16)
k = torch.empty(2, 640, 2, 128, dtype=torch.bfloat16)
_, args, kw = sm90_decode.stream_launch_args(q, k, k, torch.empty(4, 2, 8, 128), torch.empty(4, 8, 2), torch.empty_like(q),
                                             torch.empty(8, 2), torch.empty(16, dtype=torch.int64), 0.1, 6, tail=TAIL)
reports, compiled = audit_triton(sm90_decode.attn_decode_sm90_stream, args, kw, public_params=("FLAGS",))
text = C.sass_text(compiled.cubin)
print(json.dumps(dict(tail=kw["TAIL"], ok=all(r.ok for r in reports),
                      findings=[str(f) for r in reports for f in r.findings][:3], ballots=text.count("VOTE.ANY R"),
                      calls=text.count("CALL"))))
"""


@pytest.mark.parametrize("tail", [True, False])
def test_stream_tail_and_first_form_compile_and_audit_clean(tail):
    """The stream kernel's TAIL build (shipped from session 62: one release fence for the done-words, one round for
    every pair's words, pairs of one piece stored at their segment's end) and session 61's first form (tail=False, the
    experiments') compile for sm_90a offline and audit clean (FLAGS public), TAIL with one warp ballot, the first form
    with none, neither with a CALL; the TAIL launcher refuses a schedule of more pairs a program than a warp's lanes
    hold, naming n_prog."""
    row = _offline_json(f"TAIL = {tail}\n" + TAIL_BUILD)
    assert row == dict(tail=tail, ok=True, findings=[], ballots=int(tail), calls=0), row
    from dhpfa.kernels import sm90_decode
    k1 = torch.empty(40, 1, 2, 128, dtype=torch.bfloat16)  # 80 pairs of one block over 6 programs: 14 pairs a program
    with pytest.raises(ValueError, match="n_prog"):
        sm90_decode.stream_launch_args(torch.empty(40, 1, 8, 128, dtype=torch.bfloat16), k1, k1, None, None,
                                       torch.empty(40, 1, 8, 128, dtype=torch.bfloat16), None, None, 0.1, 6, tail=True)
