"""The Gluon kernel (kernels/sm90_fwd.py): clean audit offline (CI) and correctness against
float64 with poisoned outputs on the GPU."""
import json
import os
import subprocess
import sys

import pytest
import torch

from dhpfa.reference import attention_ref_rows

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

AUDIT = """
import json, torch
from dhpfa.kernels import sm90_fwd
from dhpfa.audit import audit_triton
rows = []
configs = ((sm90_fwd.attn_fwd_sm90, dict(block_m=64)),
           (sm90_fwd.attn_fwd_sm90_ws, dict(block_m=128, block_n=64, stages=3, warp_specialized=True)),
           (sm90_fwd.attn_fwd_sm90_ws, dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2,
                                            pingpong=True)),
           (sm90_fwd.attn_fwd_sm90_ws, dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2,
                                            pingpong=True, persistent=True)))
for fn, tiles in configs:
    ws = tiles.get("warp_specialized", False)
    for d, causal in ((64, True), (128, False)):  # (the shipped builds: every one in test_audit's full audit)
        q = torch.empty(2, 128, 4, d, dtype=torch.bfloat16); k = torch.empty(2, 128, 2, d, dtype=torch.bfloat16)
        _, a, kw = sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 128),
                                        0.1, causal, 0, **tiles)
        r, _ = audit_triton(fn, a, kw)
        rows.append(dict(ws=ws, d=d, causal=causal, ok=r[0].ok, kinds=r[0].by_kind(),
                         gmma=r[0].counts["tensor_core"]))
print(json.dumps(rows))
"""


def _offline(script):
    """Run `script` in a fresh process without the interpreter (compiled kernels; CPU only) and return
    the JSON of its last output line."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "src"), env.get("PYTHONPATH", "")])
    res = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_gluon_kernel_audits_clean():
    rows = _offline(AUDIT)
    assert len(rows) == 8 and all(r["ok"] and r["gmma"] > 0 for r in rows), rows


NAMED_BARRIERS = """
import json, re, torch
from dhpfa.audit import _compile, audit_cubin, variant_launch
from dhpfa.kernels import sm90_fwd, variants
BAR = re.compile(r"\\b(BAR\\.(?:SYNC|ARV|RED)[.A-Z_]*)\\s+(0x[0-9a-f]+|R\\d+)(?:,\\s*(0x[0-9a-f]+|R\\d+))?")
SWAP = re.compile(r"PRMT (R\\d+), (R\\d+), 0x5432, \\2")  # the two 16-bit halves of a register swapped
seen = []
swaps = {}
chosen = [v for v in variants.shipped_variants()
          if v.kernel in variants.GLUON_KERNELS and v.dtype == torch.bfloat16 and v.head_dim == 128]
texts = _compile.sass_texts([_compile.compile_offline(*variant_launch(v)).cubin for v in chosen])  # one nvdisasm run
for v, text in zip(chosen, texts):
    seen += [[v.name, m.group(1), m.group(2), m.group(3)] for m in BAR.finditer(text)]
    swaps[v.name] = [len(SWAP.findall(text)), v.config.defer_store]
# three consumer warpgroups (shipped at D=64 without turns), here with turns: D=64, 192-row tiles
q = torch.empty(2, 192, 4, 64, dtype=torch.bfloat16); k = torch.empty(2, 192, 2, 64, dtype=torch.bfloat16)
_, a, kw = sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 192), 0.1, False, 0,
                                block_m=192, block_n=128, stages=2, warp_specialized=True, split=3, pingpong=True,
                                persistent=True)
c = _compile.compile_offline(sm90_fwd.attn_fwd_sm90_ws, a, kw)
text = _compile.sass_text(c.cubin)
split3 = dict(stack=_compile.resource_usage(c.cubin)[c.name]["stack"], ok=all(r.ok for r in audit_cubin(c.cubin, c.name)),
              hgmma=text.count("HGMMA"), hgmma_l=text.count("HGMMA.64x8x16"),
              bars=[[m.group(1), m.group(2), m.group(3)] for m in BAR.finditer(text)])
print(json.dumps(dict(seen=seen, split3=split3, swaps=swaps)))
"""


@pytest.fixture(scope="module")
def named_barrier_report():
    return _offline(NAMED_BARRIERS)


def test_named_barrier_ids_are_the_kernels_own(named_barrier_report):
    """The ping-pong turns use hardware named barriers from sm90_fwd.TURN_IDS (14 and 15 with two
    consumers) with 256 threads; Triton 3.6's own barriers use lower ids. A Triton that took 13-15 for
    itself would mix its barriers with the turns (a hang or a race): this fails first."""
    seen = named_barrier_report["seen"]
    turns = [b for b in seen if b[2] in ("0xd", "0xe", "0xf")]
    assert turns and all(b[3] == "0x100" for b in turns), turns[:4]
    assert {b[1].split(".")[1] for b in turns} == {"SYNC", "ARV"}
    others = [b for b in seen if b[2] not in ("0xd", "0xe", "0xf")]
    assert all(b[2].startswith("0x") and int(b[2], 16) < 13 for b in others), others[:4]


def test_p_waits_for_its_gemm_in_packed_words(named_barrier_report):
    """P waits for the next step's PV GEMM as 16-bit pairs in int32 words (sm90_fwd.P_PACKED): carried as 16-bit
    values, ptxas swapped the halves of every operand register with a PRMT at each step, inside the GEMM-issue turn
    (256 per D=128 build). Only the deferred-store build keeps that form (it measured slower packed: session 25)."""
    swaps = named_barrier_report["swaps"]
    deferred = {n: c for n, (c, ds) in swaps.items() if ds}
    packed = {n: c for n, (c, ds) in swaps.items() if not ds}
    assert deferred and all(c > 0 for c in deferred.values()), deferred
    assert len(packed) >= 10 and not any(packed.values()), packed


def test_three_consumer_warpgroups_compile_clean(named_barrier_report):
    """SPLIT=3 (192-row tiles, D=64) with turns: audits clean, spills at most one word with 160 registers per
    consumer (since the row sums moved to the tensor cores, session 25: a scalar stored at the start and reloaded per
    partition, not in the key-block loops), takes its row sums on the tensor cores (non-causal: sm90_fwd.L_MMA, P @ ones
    in m64n8 GEMMs), and rotates its turns over ids 13, 14 and 15 (the shipped build takes no turns; the audit
    checks it)."""
    r = named_barrier_report["split3"]
    assert r["ok"] and r["stack"] <= 8 and r["hgmma"] > 0 and r["hgmma_l"] > 0, r
    ids = {b[1] for b in r["bars"] if b[1] in ("0xd", "0xe", "0xf")}
    assert ids == {"0xd", "0xe", "0xf"}, r["bars"]
    assert all(b[2] == "0x100" for b in r["bars"] if b[1] in ("0xd", "0xe", "0xf"))


@pytest.mark.gpu
@pytest.mark.parametrize("tiles", [dict(block_m=64, block_n=128, stages=2),
                                   dict(block_m=128, block_n=128, stages=2, warp_specialized=True),
                                   dict(block_m=128, block_n=64, stages=3, warp_specialized=True),
                                   dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2),
                                   dict(block_m=128, block_n=64, stages=3, warp_specialized=True, split=2,
                                        pingpong=True),
                                   dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2,
                                        pingpong=True, persistent=True),
                                   # 3 programs: each runs many tiles (ring, turns, Q phases carry over)
                                   dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2,
                                        pingpong=True, persistent=True, num_sms=3),
                                   # three consumer warpgroups: turns rotating over three ids, and none (shipped)
                                   dict(block_m=192, block_n=128, stages=2, warp_specialized=True, split=3,
                                        pingpong=True, persistent=True, num_sms=5),
                                   dict(block_m=192, block_n=128, stages=2, warp_specialized=True, split=3,
                                        persistent=True, num_sms=5),
                                   # causal builds with key blocks narrower than the tile run SKIP by
                                   # default (sm90_fwd.skips_masked): forced off, and forced on where it is not
                                   dict(block_m=128, block_n=64, stages=3, warp_specialized=True, split=2,
                                        pingpong=True, persistent=True, num_sms=3, skip_masked=False),
                                   dict(block_m=192, block_n=128, stages=2, warp_specialized=True, split=3,
                                        persistent=True, num_sms=5, skip_masked=False),
                                   dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2,
                                        pingpong=True, persistent=True, num_sms=3, skip_masked=True),
                                   # split keys: two consumers take alternate key blocks of one 64-row tile
                                   # (stages: slots per consumer; each reads a sub-ring of its own)
                                   dict(block_m=64, block_n=64, stages=2, warp_specialized=True, split=2,
                                        split_k=True),
                                   dict(block_m=64, block_n=128, stages=1, warp_specialized=True, split=2,
                                        split_k=True),
                                   dict(block_m=64, block_n=64, stages=2, warp_specialized=True, split=2,
                                        split_k=True, persistent=True, num_sms=3),
                                   # two Q buffers (the next tile's Q loads during this one): many tiles a
                                   # program, so both buffers' phases turn over
                                   dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2,
                                        pingpong=True, persistent=True, num_sms=3, q_double=True),
                                   dict(block_m=192, block_n=128, stages=2, warp_specialized=True, split=3,
                                        persistent=True, num_sms=5, q_double=True),
                                   # the O store waited for at the next tile's epilogue (many tiles a program:
                                   # the wait must come before every rewrite of the O buffer)
                                   dict(block_m=128, block_n=128, stages=2, warp_specialized=True, split=2,
                                        pingpong=True, persistent=True, num_sms=3, q_double=True,
                                        defer_store=True)],
                         ids=["single", "ws-m128n128", "ws-m128n64", "split-m128n128s2", "pingpong-m128n64s3",
                              "persistent-m128n128s2", "persistent-3-programs", "three-consumers-5-programs",
                              "three-consumers-no-turns", "noskip-pingpong-m128n64s3-3-programs",
                              "noskip-three-consumers-no-turns", "skip-persistent-m128n128s2-3-programs",
                              "splitk-m64n64s2", "splitk-m64n128s1", "splitk-persistent-m64n64s2-3-programs",
                              "two-q-buffers-3-programs", "two-q-buffers-three-consumers-5-programs",
                              "deferred-o-store-3-programs"])
@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
# (2, 333, 100): fewer keys than a block, so the peeled first block must stay masked where the non-causal 128-key
# builds run it unmasked when full (sm90_fwd FULL_FIRST; (1, 1000, 333) runs it unmasked with a ragged last block)
@pytest.mark.parametrize("shape", [(2, 333, 1000, 4, 2), (1, 1000, 333, 2, 2), (2, 777, 777, 4, 4), (2, 333, 100, 4, 2)])
def test_gluon_kernel_matches_float64(shape, d, causal, tiles):
    from dhpfa.kernels import sm90_fwd
    b, sq, sk, h, hk = shape
    g = torch.Generator(device="cuda").manual_seed(sq + sk + d)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g)
    v = torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=g)
    out = torch.full_like(q, float("nan"))
    lse = torch.full((b, h, sq), float("nan"), device="cuda")
    if tiles.get("q_double") and sm90_fwd.ws_smem_bytes(tiles["block_m"], tiles["block_n"], d, tiles["stages"], True,
                                                        q_double=True) > sm90_fwd.SMEM_LIMIT:
        with pytest.raises(ValueError, match="two Q buffers"):  # three 192-row Q tiles at D=128 do not fit
            sm90_fwd.launch(q, k, v, out, lse, d ** -0.5, causal, sk - sq, **tiles)
        return
    sm90_fwd.launch(q, k, v, out, lse, d ** -0.5, causal, sk - sq, **tiles)
    rows = torch.arange(sq, device="cuda")
    for bb, hh in {(0, 0), (b - 1, h - 1)}:
        ref, ref_lse = attention_ref_rows(q, k, v, d ** -0.5, sk - sq if causal else None, bb, hh, rows)
        assert float((out[bb, :, hh].double() - ref).norm() / ref.norm()) < 1e-2
        fin = torch.isfinite(ref_lse)
        assert torch.equal(torch.isfinite(lse[bb, hh]), fin)
        assert torch.allclose(lse[bb, hh][fin].double(), ref_lse[fin], rtol=1e-3, atol=1e-3)



@pytest.mark.gpu
@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_split_keys_on_a_grid_of_thousands_of_programs(d, causal):
    """The shipped split-key build on the tuner's grids (B = 32, H = 2048 / D, S = 512: thousands of
    programs), 20 calls. With one ring shared by both consumers this raced and ended in "unspecified launch
    failure" (session 8 run 2); every smaller grid had passed."""
    from dhpfa.kernels import variants
    from .reference import check_variant_on_grid
    kernel, config = variants._SPLIT_K
    check_variant_on_grid(variants.Variant(kernel, config, torch.bfloat16, d, causal), 32, 2048 // d, 512, calls=20,
                          tol=1e-2)


def _ws_launch_args(d, **tiles):
    """sm90_fwd.launch_args of a warp-specialised build on CPU placeholders (2, 256, 4 / 2, d), non-causal."""
    from dhpfa.kernels import sm90_fwd
    q = torch.empty(2, 256, 4, d, dtype=torch.bfloat16)
    k = torch.empty(2, 256, 2, d, dtype=torch.bfloat16)
    return sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 256), 0.1, False, 0,
                                warp_specialized=True, **tiles)


def _two_consumer_launch_args(d, **tiles):
    """_ws_launch_args of a two-consumer build."""
    return _ws_launch_args(d, split=2, **tiles)


def test_two_q_buffers_need_their_own_o_buffer_and_shared_memory():
    """q_double is honoured where the build stages O in a buffer of its own (persistent) without split keys
    and the three Q-sized tiles and the ring fit in shared memory; elsewhere it is refused, not dropped."""
    from dhpfa.kernels import sm90_fwd

    def args(d, **tiles):
        return _two_consumer_launch_args(d, pingpong=True, q_double=True, **tiles)
    _, _, kwargs = args(128, block_m=128, block_n=128, stages=2, persistent=True)
    assert kwargs["Q_DOUBLE"] and kwargs["O_SMEM"]
    assert sm90_fwd.ws_smem_bytes(128, 128, 128, 2, True, q_double=True) == (3 * 128 * 128 + 4 * 128 * 128) * 2 + 1024
    # O_HALF: one consumer's O rows beside Q and the ring (229,376 + 1,024 bytes at D=256, two 64-key stages)
    assert sm90_fwd.ws_smem_bytes(128, 64, 256, 2, False, o_rows=64) == (192 * 256 + 4 * 64 * 256) * 2 + 1024
    with pytest.raises(ValueError, match="two Q buffers"):
        args(128, block_m=128, block_n=128, stages=2)  # one program per tile: O staged in Q's tile
    with pytest.raises(ValueError, match="two Q buffers"):
        args(256, block_m=128, block_n=64, stages=2, persistent=True)  # D=256: no room for O's own buffer
    with pytest.raises(ValueError, match="two Q buffers"):
        args(128, block_m=128, block_n=128, stages=3, persistent=True)  # three stages and three Q tiles: too big


def test_deferred_o_store_needs_its_own_o_buffer():
    """defer_store (a tile's O store waited for at the next tile's epilogue) is honoured where O has a buffer of
    its own (persistent, no split keys): the kernel gets DEFER_STORE; elsewhere it is refused, not dropped (the
    O store would race with the next Q load into Q's tile)."""
    def args(d, **tiles):
        return _two_consumer_launch_args(d, defer_store=True, **tiles)
    _, _, kwargs = args(128, block_m=128, block_n=128, stages=2, pingpong=True, persistent=True)
    assert kwargs["DEFER_STORE"] and kwargs["O_SMEM"]
    with pytest.raises(ValueError, match="deferred O store"):
        args(128, block_m=128, block_n=128, stages=2, pingpong=True)  # one program per tile: O staged in Q's tile
    with pytest.raises(ValueError, match="deferred O store"):
        args(256, block_m=128, block_n=64, stages=2, pingpong=True, persistent=True)  # D=256: no room for O's buffer
    with pytest.raises(ValueError, match="deferred O store"):
        args(64, block_m=64, block_n=64, stages=2, split_k=True, persistent=True)  # split keys


def test_split_kv_launches_twice_the_tiles_with_a_fresh_workspace_and_nonce():
    """split_kv: one program per half of each 64-row tile (causal tiles unpaired), a workspace of two fp32 states
    per tile and an int64 flag per tile, and a nonce drawn per launch (odd, in [2^62, 2^63): one Triton
    specialisation for all); refused with persistent grids, two consumers, split keys, two Q buffers."""
    from dhpfa.kernels import sm90_fwd
    q = torch.empty(2, 300, 4, 64, dtype=torch.bfloat16)
    k = torch.empty(2, 1000, 2, 64, dtype=torch.bfloat16)
    nonces = set()
    for causal in (False, True):
        grid, _, kwargs = sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 300),
                                               0.1, causal, 700, block_m=64, block_n=128, stages=2,
                                               warp_specialized=True, split_kv=2)
        tiles = 2 * 4 * 5
        assert grid == (2 * tiles,) and kwargs["SPLIT_KV"]
        assert kwargs["WS"].shape == (2 * tiles * 64 * 66,) and kwargs["WS"].dtype == torch.float32
        assert kwargs["FLAGS"].shape == (tiles,) and kwargs["FLAGS"].dtype == torch.int64
        nonces.add(kwargs["NONCE"])
    nonces |= {sm90_fwd.split_kv_nonce() for _ in range(1000)}
    assert len(nonces) == 1002 and all(n >> 62 == 1 and n & 1 for n in nonces)
    for bad in (dict(persistent=True), dict(split=2), dict(split_k=True, split=2), dict(q_double=True)):
        with pytest.raises(ValueError, match="split_kv"):
            sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 300), 0.1, False, 0,
                                 block_m=64, block_n=128, stages=2, warp_specialized=True, split_kv=2, **bad)


@pytest.mark.parametrize("d", [32, 64, 96, 128])
@pytest.mark.parametrize("block_n,stages", [(64, 3), (128, 2)])
def test_cluster_builds_meet_past_tritons_shared_memory_without_a_workspace(d, block_n, stages):
    """split_kv=2 with cluster (session 43): the tile's two programs as one cluster of two CTAs (sm90_fwd CLUSTER): no
    workspace or flags (the meeting is in shared memory), a fresh nonce, the meeting's area past every byte a SPLIT_KV
    build of those tiles allocates (ws_smem_bytes), 128-byte aligned, and within the SM's shared memory; refused with
    packed tiles. With four parts (CL_TREE, session 47: each pair of parts one cluster, the levels above in global
    memory) the same area, and the workspace and flags of a four-part tree."""
    from dhpfa.kernels import sm90_fwd
    q = torch.empty(2, 300, 4, d, dtype=torch.bfloat16)
    k = torch.empty(2, 1000, 2, d, dtype=torch.bfloat16)
    kd = sm90_fwd.kernel_head_dim(d)
    grid, _, kwargs = sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 300), 0.1,
                                           False, 700, block_m=64, block_n=block_n, stages=stages,
                                           warp_specialized=True, split_kv=2, pv_overlap=True, cluster=True)
    assert grid == (2 * 2 * 4 * 5,) and kwargs["SPLIT_KV"] == 2 and "WS" not in kwargs and "FLAGS" not in kwargs
    assert kwargs["NONCE"] >> 62 == 1 and kwargs["NONCE"] & 1
    off = kwargs["CLUSTER"]
    assert off % 128 == 0 and off >= sm90_fwd.ws_smem_bytes(64, block_n, kd, stages, False)
    assert off + sm90_fwd.cluster_bytes(64, kd) <= sm90_fwd.SMEM_LIMIT
    grid4, _, kw4 = sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 300), 0.1,
                                         False, 700, block_m=64, block_n=block_n, stages=stages,
                                         warp_specialized=True, split_kv=4, pv_overlap=True, cluster=True)
    assert grid4 == (4 * 2 * 4 * 5,) and kw4["SPLIT_KV"] == 4 and kw4["CLUSTER"] == off
    assert kw4["FLAGS"].numel() == 3 * 2 * 4 * 5 and kw4["WS"].numel() == 6 * 2 * 4 * 5 * 64 * (kd + 2)
    for bad, says in ((dict(pack=8), "pack=8"),):
        with pytest.raises(ValueError, match=says):
            sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 300), 0.1, False,
                                 700, **dict(dict(block_m=64, block_n=block_n, stages=stages, warp_specialized=True,
                                                  split_kv=2, pv_overlap=True, cluster=True), **bad))


def test_cluster_launcher_asks_for_clusters_of_two_and_the_meetings_bytes(monkeypatch):
    """sm90_fwd.cluster_launcher: the JIT's binary (compiled for one CTA a cluster) with metadata asking for clusters of
    two CTAs and CLUSTER + cluster_bytes of dynamic shared memory, over half the grid (Triton's launcher multiplies it by
    the CTAs a cluster); the binary itself untouched, one clustered copy per binary; refused where its own shared memory
    reaches past the area's offset. A stand-in for the compiled kernel (no GPU here)."""
    import types
    from dhpfa.kernels import dispatch, sm90_fwd
    calls = []

    class Run:
        global_scratch_size = profile_scratch_size = 0
        launch_cooperative_grid = launch_pdl = False

        def __call__(self, *a):
            calls.append(a)

        def launch(self, *a):
            calls.append(a)

    shared = [70000]
    binaries = {}  # the JIT's cache: one compiled kernel per binary

    def warmup(*args, grid, **kwargs):
        return binaries.setdefault(shared[0], types.SimpleNamespace(
            metadata=types.SimpleNamespace(shared=shared[0], num_warps=8), packed_metadata=(8, 1, shared[0]),
            function=object(), run=Run()))
    monkeypatch.setattr(sm90_fwd.attn_fwd_sm90_ws, "warmup", warmup)
    monkeypatch.setattr(dispatch, "_current_stream", lambda index: 0)
    q = torch.empty(1, 512, 8, 64, dtype=torch.bfloat16)
    tensors = (q, q, q, torch.empty_like(q), torch.empty(1, 8, 512))
    grid, args, kwargs = sm90_fwd.launch_args(*tensors, 0.125, False, 0, block_m=64, block_n=64, stages=3,
                                              warp_specialized=True, split_kv=2, pv_overlap=True, cluster=True)
    shared[0] = kwargs["CLUSTER"] - 700  # the binary's own: below the area
    launcher = sm90_fwd.cluster_launcher(grid, args, kwargs, tensors, 0.125)
    assert launcher.grid == (grid[0] // 2, 1, 1) == (64, 1, 1)
    assert launcher.kernel.packed_metadata == (8, 2, kwargs["CLUSTER"] + sm90_fwd.cluster_bytes(64, 64))
    assert binaries[shared[0]].packed_metadata == (8, 1, shared[0])  # the binary's own metadata untouched
    # (session 44) every launcher of one binary runs the same clustered copy: the kernel object a launch returns is the
    # same through the cache and through a fresh launcher (test_gpu's test_cached_launch_equals_jit_launch)
    assert sm90_fwd.cluster_launcher(grid, args, kwargs, tensors, 0.125).kernel is launcher.kernel
    launcher(tensors, 0.125, 0)
    assert calls and calls[-1][:3] == (64, 1, 1)
    shared[0] = kwargs["CLUSTER"] + 16
    with pytest.raises(RuntimeError, match="CLUSTER"):
        sm90_fwd.cluster_launcher(grid, args, kwargs, tensors, 0.125)


@pytest.mark.parametrize("ctas", [4, 8, 16])
def test_cluster_launcher_runs_clusters_of_four_eight_and_sixteen(monkeypatch, ctas):
    """cluster=4 / 8 / 16 (sessions 48-50; 16 a non-portable size, allowed on the function before its first
    launch): each four / eight parts of a split one cluster of that many CTAs, the launch
    asking for CLUSTER + two level areas (eight's third level reuses the first's area) over grid / ctas clusters; no
    workspace where the split has no more parts than a cluster, the tree's workspace and flags above it; fewer parts
    than a cluster refused with the argument named. A stand-in for the compiled kernel (no GPU here)."""
    import types
    from dhpfa.kernels import dispatch, sm90_fwd

    class Run:
        global_scratch_size = profile_scratch_size = 0
        launch_cooperative_grid = launch_pdl = False

        def __call__(self, *a):
            pass

    def warmup(*args, grid, **kwargs):
        return types.SimpleNamespace(metadata=types.SimpleNamespace(shared=kwargs["CLUSTER"] - 512, num_warps=4),
                                     packed_metadata=(4, 1, 0), function=object(), run=Run())
    monkeypatch.setattr(sm90_fwd.attn_fwd_sm90_ws, "warmup", warmup)
    monkeypatch.setattr(dispatch, "_current_stream", lambda index: 0)
    allowed = []  # (clusters of sixteen: the non-portable size allowed on the function first)
    monkeypatch.setattr(sm90_fwd, "_allow_non_portable_clusters", allowed.append)
    q = torch.empty(1, 4, 8, 128, dtype=torch.bfloat16)
    k = torch.empty(1, 8192, 8, 128, dtype=torch.bfloat16)
    tensors = (q, k, k, torch.empty_like(q), torch.empty(1, 8, 4))
    for parts, asked in ((ctas, None), (2 * ctas, None), (ctas, True), (ctas, False)):
        grid, args, kwargs = sm90_fwd.launch_args(*tensors, 0.125, False, 0, block_m=64, block_n=128, stages=2,
                                                  warp_specialized=True, split_kv=parts, pv_overlap=True, cluster=ctas,
                                                  cluster_pull=asked)
        assert grid == (8 * parts,) and kwargs["CLUSTER_N"] == ctas
        assert ("WS" in kwargs and "FLAGS" in kwargs) == (parts > ctas), sorted(kwargs)
        # (session 51; on by default since session 52) one cluster a tile meeting in one exchange (CL_PULL): its areas,
        # and O's pointer and strides; since session 53 also two clusters a tile (their slices then meet in the
        # workspace); not where refused (False)
        pull = parts in (ctas, 2 * ctas) and asked is not False and (asked or sm90_fwd.CL_PULL_DEFAULT)
        assert kwargs.get("CL_PULL", False) == bool(pull), sorted(kwargs)
        if pull:
            assert kwargs["O_PTR"] is tensors[3] and (kwargs["O_SB"], kwargs["O_SS"], kwargs["O_SH"]) == \
                tensors[3].stride()[:3]
        launcher = sm90_fwd.cluster_launcher(grid, args, kwargs, tensors, 0.125)
        assert launcher.grid == (8 * parts // ctas, 1, 1)
        area = sm90_fwd.cluster_pull_bytes(64, 128, ctas) if pull else 2 * sm90_fwd.cluster4_area(64, 128)
        assert launcher.kernel.packed_metadata == (4, ctas, kwargs["CLUSTER"] + area)
        assert kwargs["CLUSTER"] + area <= sm90_fwd.SMEM_LIMIT
        assert (launcher.kernel in allowed) == (ctas > 8)
    with pytest.raises(ValueError, match=f"cluster={ctas}"):
        sm90_fwd.launch_args(*tensors, 0.125, False, 0, block_m=64, block_n=128, stages=2, warp_specialized=True,
                             split_kv=ctas // 2, pv_overlap=True, cluster=ctas)


def test_one_cluster_splits_meet_in_one_exchange_where_out_allows():
    """cluster_pull (session 51, sm90_fwd CL_PULL): a split of one cluster of four, eight or sixteen parts a tile at
    D = 64 / 128 meets in one exchange where asked for (True; the default None follows CL_PULL_DEFAULT, on since
    session 52's device runs: see sm90_fwd) and stores O through its pointer and strides; not at D=96 (run as 128: a
    part's columns past O's head dim) or with more than four clusters a tile (session 53: two or four clusters a tile
    exchange in each, their column slices then meet in the workspace, sm90_fwd._clp_global; CL_PULL_CLUSTERS): asked
    for there, refused with the argument named; False keeps the tree of levels. (out's strides are multiples of 8
    wherever its TMA descriptor is made, as the parts' vector stores need.)"""
    from dhpfa.kernels import sm90_fwd

    def kw(d=128, parts=16, ctas=16, out=None, **extra):
        q = torch.empty(1, 4, 8, d, dtype=torch.bfloat16)
        k = torch.empty(1, 8192, 8, d, dtype=torch.bfloat16)
        out = torch.empty_like(q) if out is None else out
        return sm90_fwd.launch_args(q, k, k, out, torch.empty(1, 8, 4), 0.125, False, 8188, block_m=64, block_n=128,
                                    stages=2, warp_specialized=True, split_kv=parts, pv_overlap=True, cluster=ctas,
                                    **extra)[2]
    for d, parts, ctas in ((128, 16, 16), (64, 16, 16), (128, 8, 8), (64, 4, 4)):
        assert kw(d, parts, ctas, cluster_pull=True)["CL_PULL"]
        assert kw(d, parts, ctas).get("CL_PULL", False) == sm90_fwd.CL_PULL_DEFAULT
        assert sm90_fwd.CL_PULL_DEFAULT, "on by default since session 52"
        assert "CL_PULL" not in kw(d, parts, ctas, cluster_pull=False) and "O_PTR" not in kw(d, parts, ctas,
                                                                                            cluster_pull=False)
    assert sm90_fwd.CL_PULL_CLUSTERS == (1, 2, 4)
    for d, parts, ctas in ((128, 32, 16), (64, 64, 16), (128, 16, 4)):  # two / four clusters a tile: the workspace too
        got = kw(d, parts, ctas)
        assert got["CL_PULL"] and got["SPLIT_KV"] == parts and "WS" in got and "FLAGS" in got, (d, parts, ctas)
        assert "CL_PULL" not in kw(d, parts, ctas, cluster_pull=False)
    for bad in (dict(d=96), dict(parts=32, ctas=4), dict(parts=64, ctas=8)):
        assert "CL_PULL" not in kw(**bad), bad
        with pytest.raises(ValueError, match="cluster_pull"):
            kw(cluster_pull=True, **bad)


CLUSTER8_SASS = """
import json, re, torch
from dhpfa.audit import _compile, audit_triton
from dhpfa.kernels import sm90_fwd
rows = []
for d, parts, ctas, pull in ((128, 8, 8, False), (128, 16, 8, None), (64, 8, 8, False), (128, 32, 16, None),
                             (64, 16, 16, False), (128, 16, 16, None), (64, 8, 8, True), (128, 4, 4, None),
                             (64, 64, 16, None), (128, 32, 16, False)):
    q = torch.empty(1, 4, 8, d, dtype=torch.bfloat16)
    k = torch.empty(1, 8192, 8, d, dtype=torch.bfloat16)
    grid, args, kwargs = sm90_fwd.launch_args(q, k, k, torch.empty_like(q), torch.empty(1, 8, 4), 0.125, True, 2 ** 30,
                                              block_m=64, block_n=128, stages=2, warp_specialized=True,
                                              split_kv=parts, pv_overlap=True, cluster=ctas, cluster_pull=pull)
    reports, compiled = audit_triton(sm90_fwd.attn_fwd_sm90_ws, args, kwargs,
                                     public_params=("FLAGS",) if parts > ctas else ())
    text = _compile.sass_text(compiled.cubin)
    res = _compile.resource_usage(compiled.cubin)[compiled.name]
    rows.append(dict(ok=all(r.ok for r in reports), findings=[str(f) for r in reports for f in r.findings][:5],
                     stack=res["stack"], spills=text.count("LDL") + text.count("STL"), copies=text.count("UBLKCP.S.S"),
                     atomics=len(re.findall(r"\\bATOMG", text)), membar_gpu=text.count("MEMBAR.ALL.GPU"), parts=parts,
                     ctas=ctas, pull=kwargs.get("CL_PULL", False), stores=len(re.findall(r"\\bSTG", text)), d=d,
                     remote_loads=len(re.findall(r"\\bLD\\.E", text)), cbar_arrive=text.count("UCGABAR_ARV"),
                     cbar_wait=text.count("UCGABAR_WAIT")))
print(json.dumps(rows))
"""


def test_clusters_of_eight_and_sixteen_compile_to_bulk_copy_levels():
    """cluster=8 (session 49; offline SASS, sm_90a, bf16): the eight-CTA meeting's three levels are three smem-to-smem
    bulk copies (UBLKCP.S.S), eight parts meet with no global atomic, sixteen with one global level (one flag exchange
    behind its fence); one MEMBAR.ALL.GPU besides: rank 0's release store telling rank 4 that level 0's area is free
    (sm90_fwd _CL_TELL); no stack or spills; the audit finds nothing (the flags public loads). Clusters of sixteen
    (session 50): four copies, two tells, one global level at 32 parts. Session 51: a split of one cluster of four,
    eight or sixteen meets in one exchange by default (CL_PULL): two bulk copies (each part's m / l rows and one column
    slice of O to each rank, issued by one thread a rank), no MEMBAR.ALL.GPU and no global atomic, and global
    stores of its columns of O and of LSE (rank 0) where asked for (cluster_pull=True; on by default since session
    52: None), else the tree of levels (cluster_pull=False, or more than four clusters a tile). Session 52: the exchange
    opens through the cluster barrier (arrivals in the consumer and the producer partition) and reads the
    other ranks' states with loads from their shared memory (sm90_fwd _clusterp_meeting): no bulk copy, and two release
    arrivals (staged, done: MEMBAR.ALL.GPU each; since session 53 at phases 2 and 3 of the cluster barrier, no
    mbarrier). Session 53: two or four clusters a tile exchange too (16 parts in
    clusters of eight, 32 / 64 in clusters of sixteen), their column slices meeting in the workspace in one or two
    levels (_clp_global): a flag exchange (global atomic, MEMBAR.ALL.GPU) and the slice's three stores and the flag's
    reset a level; the tree where refused (cluster_pull=False)."""
    rows = _offline(CLUSTER8_SASS)
    assert len(rows) == 10, rows
    assert [r["pull"] for r in rows] == [False, True, False, True, False, True, True, True, True, False], rows
    for r in rows:
        assert r["ok"] and not r["findings"], r
        assert r["stack"] == 0 and r["spills"] == 0, r
        if r["pull"]:
            # (O's: a part's columns in vector stores, two where a rank has 16 or 32 columns)
            levels = (r["parts"] // r["ctas"]).bit_length() - 1  # the workspace's levels above the clusters
            assert r["copies"] == 0 and r["atomics"] == levels and r["membar_gpu"] == 2 + levels, r
            # (session 53: three phases of the cluster barrier, each arrived at in both partitions; the producer waits
            # for two of them, the consumer for all three)
            assert r["remote_loads"] > 0 and r["cbar_arrive"] == 6 and r["cbar_wait"] == 5, r
            assert r["stores"] == 1 + (2 if r["d"] // r["ctas"] >= 16 else 1) + 4 * levels, r
            continue
        levels, tells = {8: (3, 1), 16: (4, 2)}[r["ctas"]]
        assert r["copies"] == levels, r
        assert r["atomics"] == (r["parts"] > r["ctas"]) and r["membar_gpu"] == tells + (r["parts"] > r["ctas"]), r


CLUSTER_SASS = """
import json, re, torch
from dhpfa.audit import _compile, audit_triton
from dhpfa.kernels import sm90_fwd
q = torch.empty(1, 512, 8, 64, dtype=torch.bfloat16)
rows = []
for block_n, stages, maxnreg in ((64, 3, None), (128, 2, None), (128, 2, 128)):
    grid, args, kwargs = sm90_fwd.launch_args(q, q, q, torch.empty_like(q), torch.empty(1, 8, 512), 0.125, True, 0,
                                              block_m=64, block_n=block_n, stages=stages, warp_specialized=True,
                                              split_kv=2, pv_overlap=True, cluster=True, maxnreg=maxnreg)
    reports, compiled = audit_triton(sm90_fwd.attn_fwd_sm90_ws, args, kwargs)
    text = _compile.sass_text(compiled.cubin)
    res = _compile.resource_usage(compiled.cubin)[compiled.name]
    rows.append(dict(ok=all(r.ok for r in reports), findings=[str(f) for r in reports for f in r.findings][:5],
                     stack=res["stack"], spills=text.count("LDL") + text.count("STL"), copies=text.count("UBLKCP.S.S"),
                     atomics=len(re.findall(r"\\b(?:ATOMG|RED\\.E)", text)), waits=text.count("SYNCS.PHASECHK"),
                     membar_gpu=text.count("MEMBAR.ALL.GPU"), cctl=text.count("CCTL.IVALL"), regs=res["regs"],
                     smem=kwargs["CLUSTER"] + sm90_fwd.cluster_bytes(64, 64)))
print(json.dumps(rows))
"""


def test_cluster_build_compiles_to_a_bulk_copy_meeting_without_spills_or_global_atomics():
    """The cluster builds' SASS (offline, sm_90a; bf16 D=64, both tile shapes the dispatcher runs): no spills, one
    smem-to-smem bulk copy (UBLKCP.S.S) for the meeting, no global atomics (the global meetings' ATOMG), mbarrier waits;
    the audit finds nothing. Session 44: no MEMBAR.ALL.GPU (part 0's acknowledgement as a release arrive at cluster
    scope put one, with ERRBAR, before it: about 600 cycles on the path to the output) and one CCTL.IVALL (part 1's
    acquire of its ready word; the meeting's mbarrier waits at cluster scope each put one after them). Session 45: the
    128-key build at 128 registers a thread at launch (variants.SM90_FEW_PROGRAMS_CLUSTER_2X) the same, and two of its
    CTAs fit one SM's registers (256 threads x 128) and shared memory (228 KB, 1 KB of it reserved a CTA)."""
    rows = _offline(CLUSTER_SASS)
    assert len(rows) == 3, rows
    for r in rows:
        assert r["ok"] and not r["findings"], r
        assert r["stack"] == 0 and r["spills"] == 0 and r["copies"] == 1 and r["atomics"] == 0 and r["waits"] > 0, r
        assert r["membar_gpu"] == 0 and r["cctl"] == 1, r
    assert rows[2]["regs"] == 128 and 2 * (rows[2]["smem"] + 1024) <= 228 * 1024, rows[2]
    assert rows[1]["regs"] > 128 and rows[1]["smem"] == rows[2]["smem"], rows


CLUSTER_TIGHT = """
import json, torch, triton
from dhpfa.audit import _compile, audit_triton
from dhpfa.audit.compile import Compiled
from dhpfa.kernels import sm90_fwd
rows = []
for d, block_n, stages in ((128, 64, 2), (64, 64, 3)):
    q = torch.empty(1, 512, 8, d, dtype=torch.bfloat16)
    grid, args, kwargs = sm90_fwd.launch_args(q, q, q, torch.empty_like(q), torch.empty(1, 8, 512), 0.125, True, 0,
                                              block_m=64, block_n=block_n, stages=stages, warp_specialized=True,
                                              split_kv=2, pv_overlap=True, cluster=True, maxnreg=128,
                                              cluster_tight=True)
    src, options, _ = _compile._source_and_key(sm90_fwd.attn_fwd_sm90_ws, args, kwargs)
    ck = triton.compile(src, target=_compile._target(), options=options.__dict__)
    reports, compiled = audit_triton(sm90_fwd.attn_fwd_sm90_ws, args, kwargs,
                                     compiled=Compiled(ck.metadata.name, ck.asm["cubin"], False))
    res = _compile.resource_usage(compiled.cubin)[compiled.name]
    rows.append(dict(ok=all(r.ok for r in reports), shared=ck.metadata.shared, offset=kwargs["CLUSTER"],
                     total=kwargs["CLUSTER"] + sm90_fwd.cluster_bytes(64, d), regs=res["regs"], stack=res["stack"],
                     default=sm90_fwd.cluster_offset(64, block_n, d, stages)))
print(json.dumps(rows))
"""


def test_tight_cluster_offset_clears_tritons_allocation():
    """sm90_fwd.cluster_offset(tight=True) (experiments, session 45): the meeting area still starts past what Triton 3.6
    allocates (compiled offline: its metadata's shared bytes), 128-byte aligned, below the default offset; with it the
    D=128 build on 64-key blocks with two stages at 128 registers fits two CTAs an SM (the default offset put it 536 bytes
    over), and it audits clean without spills."""
    rows = _offline(CLUSTER_TIGHT)
    for r in rows:
        assert r["ok"] and r["stack"] == 0 and r["regs"] == 128, r
        assert r["shared"] <= r["offset"] < r["default"] and r["offset"] % 128 == 0, r
    assert 2 * (rows[0]["total"] + 1024) <= 228 * 1024 < 2 * (rows[0]["default"] + rows[0]["total"] - rows[0]["offset"]
                                                               + 1024), rows[0]


@pytest.mark.parametrize("d,kernel_d", [(32, 32), (64, 64), (96, 128), (128, 128), (192, 256), (256, 256)])
def test_head_dims_between_powers_of_two_run_padded(d, kernel_d):
    """D=96 / 192 run as 128 / 256 (sm90_fwd.kernel_head_dim, session 15): the kernel's HEAD_DIM and the TMA blocks
    take the padded dim, the descriptors keep the tensors' own shape and strides (so TMA zero-fills the columns past D
    and clips the O store there), the softmax scale is the caller's, and the workspace slots hold the padded dim."""
    from dhpfa.kernels import sm90_fwd
    q = torch.empty(1, 3, 8, d, dtype=torch.bfloat16)
    k = torch.empty(1, 5000, 2, d, dtype=torch.bfloat16)
    out = torch.empty_like(q)
    grid, args, kwargs = sm90_fwd.launch_args(q, k, torch.empty_like(k), out, torch.empty(1, 8, 3), 0.25, False, 4997,
                                              block_m=64, block_n=64, stages=2, warp_specialized=True, split_kv=4)
    assert kwargs["HEAD_DIM"] == kernel_d
    for desc, t in zip(args[:4], (q, k, k, out)):
        assert list(desc.shape) == list(t.shape) and desc.block_shape[-1] == kernel_d
        assert list(desc.strides)[1:] == list(t.stride())[1:]
    assert args[5] == pytest.approx(0.25 * 1.4426950408889634)
    assert kwargs["WS"].numel() == (2 * 4 - 2) * 8 * 64 * (kernel_d + 2)


def test_unpaired_split_keys_launch_one_program_per_causal_tile():
    """paired=False (causal split keys on few-program grids, session 13): one program per 64-row tile instead of one
    per pair of tiles, and PAIRED=False reaches the kernel; non-causal launches are the same either way; refused
    without split keys and with persistent grids."""
    from dhpfa.kernels import sm90_fwd
    q = torch.empty(2, 300, 4, 64, dtype=torch.bfloat16)
    k = torch.empty(2, 1000, 2, 64, dtype=torch.bfloat16)

    def launch(causal, **tiles):
        return sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 300), 0.1,
                                    causal, 700, block_m=64, block_n=64, stages=2, warp_specialized=True, split=2,
                                    **tiles)
    tiles = 2 * 4 * 5
    grid, _, kwargs = launch(True, split_k=True, paired=False)
    assert grid == (tiles,) and kwargs["PAIRED"] is False and kwargs["SPLIT_K"]
    grid, _, kwargs = launch(True, split_k=True)
    assert grid == (2 * 4 * 3,) and "PAIRED" not in kwargs  # pairs: the heaviest tile with the lightest
    (grid_u, _, kw_u), (grid_p, _, kw_p) = launch(False, split_k=True, paired=False), launch(False, split_k=True)
    assert grid_u == grid_p == (tiles,) and kw_u == kw_p
    for bad in (dict(), dict(split_k=True, persistent=True)):
        with pytest.raises(ValueError, match="paired=False"):
            launch(True, paired=False, **bad)


def test_skip_masked_is_on_for_causal_builds_with_narrow_key_blocks():
    """SKIP_MASKED (each consumer computes only its own causal blocks) is the default of exactly the causal
    warp-specialised builds with two or three consumers and key blocks narrower than the tile, except packed tiles
    (their consumers' rows are positions of the same query range: session 18)."""
    from dhpfa.audit import variant_launch
    from dhpfa.kernels import variants
    seen = set()
    for v in variants.shipped_variants():
        if v.kernel not in variants.GLUON_KERNELS:
            continue
        _, _, kwargs = variant_launch(v)
        c = v.config
        want = v.causal and c.split >= 2 and c.block_n < c.block_m and not c.pack
        assert kwargs.get("SKIP_MASKED", False) == want, v.name
        seen.add(want)
    assert seen == {False, True}


TRACE_BUILD = """
import json, torch
from dhpfa.audit import _compile
from dhpfa.kernels import sm90_fwd
q = torch.empty(2, 512, 4, 128, dtype=torch.bfloat16); k = torch.empty(2, 512, 2, 128, dtype=torch.bfloat16)
out = {}
for trace in (False, True):
    grid, a, kw = sm90_fwd.launch_args(q, k, torch.empty_like(k), torch.empty_like(q), torch.empty(2, 4, 512), 0.1,
                                       True, 0, block_m=128, block_n=64, stages=3, warp_specialized=True, split=2,
                                       pingpong=True, persistent=True, balance=True, num_sms=132, trace=trace)
    c = _compile.compile_offline(sm90_fwd.attn_fwd_sm90_ws, a, kw)
    out[str(trace)] = dict(clocks=_compile.sass_text(c.cubin).count("SR_CLOCKLO"), has_kw="TRACE" in kw,
                           words=sm90_fwd.trace_words(grid), grid=grid[0])
print(json.dumps(out))
"""


def test_timeline_build_is_apart_from_the_shipped_one():
    """trace=True (scripts/trace_timeline.py's timeline build) compiles SM clock reads into the kernel; without it
    (every shipped variant) none is compiled in and the kernel gets no TRACE argument. The words it writes past the
    LSE rows: 3 roles x 64 tiles x 64 words per program (16 programs here: 2 x 4 heads of two causal units each)."""
    r = _offline(TRACE_BUILD)
    assert r["False"]["clocks"] == 0 and not r["False"]["has_kw"], r
    assert r["True"]["clocks"] > 20 and r["True"]["has_kw"] and r["True"]["words"] == 16 * 3 * 64 * 64, r
    assert r["True"]["grid"] == 16, r


O_REGS_BUILD = r"""
import json, re, torch
from dhpfa.audit import _compile, variant_launch
from dhpfa.kernels import variants
out = {}
for v in variants.shipped_variants():
    c = v.config
    if (v.kernel in variants.GLUON_KERNELS and v.dtype == torch.bfloat16 and v.head_dim == 256 and c.split == 2
            and c.num_stages == 2 and c.block_n == 64 and not c.pack):
        text = _compile.sass_text(_compile.compile_offline(*variant_launch(v)).cubin)
        out[v.name] = dict(o_regs=c.o_regs, causal=v.causal, tma_stores=text.count("UTMASTG"),
                           wide_stores=len(re.findall(r"STG\.E\.128", text)),
                           narrow=len(re.findall(r"STG\.E\.U16", text)))
print(json.dumps(out))
"""


def test_fast_path_names_the_kernels_per_call_arguments():
    """dispatch (which does not import sm90_fwd on CPU paths) lists the Gluon kernel's per-call arguments by name: O's
    strides (sm90_fwd.O_STRIDE_ARGS), O itself, the split-KV workspace and nonce. A renamed argument would silently
    leave calls of that build off the cached fast path, so the names must be the kernel's."""
    from dhpfa.kernels import dispatch, sm90_fwd
    assert tuple(dispatch.STRIDE_ARGS) == tuple(sm90_fwd.O_STRIDE_ARGS)
    names = {p.name for p in sm90_fwd.attn_fwd_sm90_ws.params}
    for group in (dispatch.STRIDE_ARGS, dispatch.OUT_ARGS, dispatch.WORKSPACE_ARGS, dispatch.NONCE_ARGS):
        assert set(group) <= names, group


def test_o_from_registers_in_16_byte_stores():
    """The D=256 non-causal build with O stored from registers (O_REG 2; variants SM90_GLUON_BY_CAUSAL) has no TMA store and
    stores O in 16-byte stores, 16 per thread of each consumer (64 rows x 256 columns x 2 bytes / 128 threads / 16
    bytes), never 2-byte ones; the causal D=256 build keeps the TMA store of O staged in Q's tile."""
    r = _offline(O_REGS_BUILD)
    regs = [x for x in r.values() if x["o_regs"]]
    tma = [x for x in r.values() if not x["o_regs"]]
    assert regs and all(not x["causal"] and x["tma_stores"] == 0 and x["wide_stores"] == 32 and x["narrow"] == 0
                        for x in regs), r
    assert tma and all(x["tma_stores"] > 0 and x["wide_stores"] == 0 for x in tma), r


def test_o_from_registers_is_refused_where_it_does_not_apply():
    """o_regs runs on two-consumer persistent builds without packing, split keys or two Q buffers, into an out whose
    strides are multiples of 8 elements (16-byte stores); o_regs=1 (4-byte stores) needs the kernel's own head dim.
    Other calls are refused with the arguments named, not stored somewhere else."""
    with pytest.raises(ValueError, match="o_regs: .*split=1"):
        _ws_launch_args(256, block_m=64, block_n=64, stages=2, persistent=True, o_regs=True)
    with pytest.raises(ValueError, match="q_double=True"):
        _two_consumer_launch_args(128, block_m=128, block_n=128, stages=2, persistent=True, q_double=True,
                                  o_regs=True)
    from dhpfa.kernels import sm90_fwd
    q = torch.empty(2, 256, 4, 256, dtype=torch.bfloat16)
    odd = torch.empty(2, 256, 4, 260, dtype=torch.bfloat16)[..., :256]  # row stride 1,040: fine; head stride 260: not
    with pytest.raises(ValueError, match="strides"):
        sm90_fwd.launch_args(q, q, q, odd, torch.empty(2, 4, 256), 0.1, False, 0, block_m=128, block_n=64, stages=2,
                             warp_specialized=True, split=2, persistent=True, o_regs=True)
    q192 = torch.empty(2, 256, 4, 192, dtype=torch.bfloat16)
    with pytest.raises(ValueError, match="o_regs=1: the kernel's, 256"):
        sm90_fwd.launch_args(q192, q192, q192, torch.empty_like(q192), torch.empty(2, 4, 256), 0.1, False, 0,
                             block_m=128, block_n=64, stages=2, warp_specialized=True, split=2, persistent=True,
                             o_regs=1)
    _, _, kw = sm90_fwd.launch_args(q192, q192, q192, torch.empty_like(q192), torch.empty(2, 4, 256), 0.1, False, 0,
                                    block_m=128, block_n=64, stages=2, warp_specialized=True, split=2, persistent=True,
                                    o_regs=True)
    assert kw["O_REG"] == 2 and kw["O_SS"] == 4 * 192 and not kw["O_SMEM"]


def test_o_from_registers_only_for_non_causal_d256_calls():
    """The dispatcher runs the O_REG build for non-causal D=256 / 192 calls on Hopper (short and long keys) and never
    for causal ones (session 39: causal 512 lost), and the shipped set has it only as non-causal variants."""
    from dhpfa.kernels import variants
    for d in (192, 256):
        for sk in (512, 4096, 16384):
            assert variants.select(torch.bfloat16, d, False, False, sk, sm90=True).config.o_regs
            assert not variants.select(torch.bfloat16, d, True, False, sk, sm90=True).config.o_regs
    for d in (64, 128):
        assert not variants.select(torch.bfloat16, d, False, False, 4096, sm90=True).config.o_regs
    shipped = [v for v in variants.shipped_variants() if v.config.o_regs]
    assert shipped and all(not v.causal and v.head_dim in (192, 256) for v in shipped)


def test_v_slot_staging_for_causal_d256_calls_only():
    """The dispatcher runs the V_STAGE build (the second consumer's O staged in its last block's V slot) for causal
    D=256 / 192 calls on Hopper at every length and never for non-causal ones; the shipped set has it only as causal
    variants (a non-causal launch of it would be the plain build: launch_args ignores it there)."""
    from dhpfa.kernels import variants
    for d in (192, 256):
        for sk in (512, 4096, 16384):
            assert variants.select(torch.bfloat16, d, True, False, sk, sm90=True).config.v_stage
            assert not variants.select(torch.bfloat16, d, False, False, sk, sm90=True).config.v_stage
    assert not variants.select(torch.bfloat16, 128, True, False, 512, sm90=True).config.v_stage
    shipped = [v for v in variants.shipped_variants() if v.config.v_stage]
    assert shipped and all(v.causal and v.head_dim in (192, 256) for v in shipped)


def test_v_slot_staging_is_refused_where_it_does_not_apply():
    """v_stage needs causal calls of two consumers with skip_masked whose O is staged in Q's tile, and key blocks of
    the consumers' rows (a V slot of O's shape); other causal calls are refused with the arguments named, non-causal
    ones run the plain build (no V_STAGE argument)."""
    from dhpfa.kernels import sm90_fwd
    q = torch.empty(2, 256, 4, 256, dtype=torch.bfloat16)

    def args(causal, **tiles):
        return sm90_fwd.launch_args(q, q, q, torch.empty_like(q), torch.empty(2, 4, 256), 0.1, causal, 0,
                                    warp_specialized=True, split=2, persistent=True, pingpong=True, **tiles)
    assert args(True, block_m=128, block_n=64, stages=2, v_stage=True)[2]["V_STAGE"]
    assert "V_STAGE" not in args(False, block_m=128, block_n=64, stages=2, v_stage=True)[2]
    traced = args(True, block_m=128, block_n=64, stages=2, v_stage=True, trace=True)[2]  # its timeline (session 40)
    assert traced["V_STAGE"] and traced["TRACE"]
    half = args(True, block_m=128, block_n=64, stages=2, v_stage=True, o_half=True)[2]  # consumer 0's O buffer
    assert half["V_STAGE"] and half["O_HALF"]
    assert "O_HALF" not in args(False, block_m=128, block_n=64, stages=2, v_stage=True, o_half=True)[2]
    with pytest.raises(ValueError, match="o_half: shared memory"):  # beside three stages it does not fit
        args(True, block_m=128, block_n=64, stages=3, v_stage=True, o_half=True)
    light = args(True, block_m=128, block_n=64, stages=2, v_stage=True, o_half=True, light_first=True)[2]
    assert light["LIGHT_FIRST"] and "LIGHT_FIRST" not in args(False, block_m=128, block_n=64, stages=2,
                                                             light_first=True)[2]
    with pytest.raises(ValueError, match="light_first: .*balance=True"):  # BALANCE's halves follow the tile order
        args(True, block_m=128, block_n=64, stages=2, balance=True, light_first=True)
    with pytest.raises(ValueError, match="v_stage .*o_regs=True"):
        args(True, block_m=128, block_n=64, stages=2, v_stage=True, o_regs=True)
    with pytest.raises(ValueError, match="v_stage .*block_n=32"):
        args(True, block_m=128, block_n=32, stages=2, v_stage=True)
    with pytest.raises(ValueError, match="v_stage .*skip_masked=False"):
        args(True, block_m=128, block_n=64, stages=2, skip_masked=False, v_stage=True)


def test_timeline_build_is_refused_where_it_has_no_records():
    """The timeline build's records are those of two consumer warpgroups on whole tiles: other builds are refused with
    the arguments named, not compiled into a kernel whose stamps would mean something else."""
    with pytest.raises(ValueError, match="trace: .*split=1"):
        _ws_launch_args(128, block_m=64, block_n=64, stages=2, trace=True)
    with pytest.raises(ValueError, match="split_k=True"):
        _two_consumer_launch_args(64, block_m=64, block_n=64, stages=2, split_k=True, persistent=True, trace=True)
