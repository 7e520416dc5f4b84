"""The autotuner's cache logic on CPU (the GPU timing is replaced by a given timer)."""
import json

import pytest
import torch

from dhpfa import tune
from dhpfa.kernels import dispatch, variants

CPU = torch.device("cpu")


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(tune.CACHE_ENV, str(tmp_path))
    monkeypatch.delenv(tune.AUTOTUNE_ENV, raising=False)
    monkeypatch.setattr(tune, "gpu_name", lambda device: "Fake H200 sm90")
    tune.clear_memory()
    yield tmp_path
    tune.clear_memory()


def test_seq_classes():
    assert [tune.seq_class(s) for s in (1, 512, 513, 1024, 3000, 16384, 131072)] == \
        [512, 512, 1024, 1024, 4096, 16384, 16384]


def test_every_candidate_is_a_shipped_variant():
    shipped = {v.name for v in variants.shipped_variants()}
    for d in variants.HEAD_DIMS:
        for sm90 in (False, True):
            for dt in variants.DTYPES:
                for causal in (False, True):
                    cands = tune.candidate_variants(dt, d, causal, sm90)
                    assert cands and {v.name for v in cands} <= shipped
                    assert sm90 or all(v.kernel in variants.TRITON_KERNELS for v in cands)


def test_tune_stores_the_fastest_and_lookup_returns_it(cache_dir):
    cands = tune.candidate_variants(torch.bfloat16, 128, True, True)
    assert len(cands) >= 3
    slow = {v.name: 1.0 + i for i, v in enumerate(cands)}
    fastest = cands[-1]
    slow[fastest.name] = 0.5
    seen = []

    def timer(v, case):
        seen.append(case)
        return slow[v.name]
    got = tune.tune(torch.bfloat16, 128, True, 3000, device=CPU, time_fn=timer, sm90=True)
    assert got == fastest
    assert {(c.seq, c.head_dim, c.causal, c.dtype) for c in seen} == {(4096, 128, True, "bf16")}
    data = json.loads((cache_dir / "tune.json").read_text())
    key = tune.cache_key("cpu", torch.bfloat16, 128, True, 3000)
    assert data[key]["variant"] == fastest.name and len(data[key]["ms"]) == len(cands)
    assert data[key]["timing"] == "graph"  # the default: CUDA-graph replay, the kernels' own time
    tune.clear_memory()  # from the file, not from memory
    assert tune.lookup("cpu", torch.bfloat16, 128, True, 2500, True) == fastest
    assert tune.lookup("cpu", torch.bfloat16, 128, False, 2500, True) is None  # other flag: other key
    assert tune.lookup("cpu", torch.float16, 128, True, 2500, True) is None    # other dtype
    assert tune.lookup("cpu", torch.bfloat16, 128, True, 8000, True) is None   # other class
    assert tune.lookup("other gpu", torch.bfloat16, 128, True, 2500, True) is None


def test_failing_candidate_is_skipped_with_a_warning(cache_dir):
    cands = tune.candidate_variants(torch.float16, 64, False, True)

    def timer(v, case):
        if v == cands[0]:
            raise RuntimeError("out of resources")
        return 2.0 if v == cands[1] else 3.0
    with pytest.warns(UserWarning, match="out of resources"):
        assert tune.tune(torch.float16, 64, False, 512, device=CPU, time_fn=timer, sm90=True) == cands[1]


def test_stale_or_corrupt_cache_falls_back_to_the_default(cache_dir):
    key = tune.cache_key("Fake H200 sm90", torch.bfloat16, 64, False, 16384)
    (cache_dir / "tune.json").write_text(json.dumps({key: {"variant": "attn_fwd-not-a-shipped-variant"}}))
    default = variants.select(torch.bfloat16, 64, False, False, seq_k=16384, sm90=True)
    assert tune.choose(torch.bfloat16, 64, False, 16384, CPU, sm90=True) == default
    tune.clear_memory()
    (cache_dir / "tune.json").write_text("{not json")
    with pytest.warns(UserWarning, match="unreadable tuning cache"):
        assert tune.choose(torch.bfloat16, 64, False, 16384, CPU, sm90=True) == default


def test_unknown_timing_is_refused(cache_dir):
    with pytest.raises(ValueError, match="timing must be one of"):
        tune.tune(torch.bfloat16, 64, False, 512, device=CPU, time_fn=lambda v, c: 1.0, sm90=True, timing="wall")


def test_choose_uses_the_cached_choice(cache_dir):
    default = variants.select(torch.bfloat16, 64, False, False, seq_k=16384, sm90=True)
    gluon = next(v for v in tune.candidate_variants(torch.bfloat16, 64, False, True)
                 if v.config.persistent and v != default)  # a choice the default would not make
    key = tune.cache_key("Fake H200 sm90", torch.bfloat16, 64, False, 16384)
    (cache_dir / "tune.json").write_text(json.dumps({key: {"variant": gluon.name}}))
    assert tune.choose(torch.bfloat16, 64, False, 16384, CPU, sm90=True) == gluon
    # a Gluon choice is not a candidate off sm_90: the default decides there
    assert tune.choose(torch.bfloat16, 64, False, 16384, CPU, sm90=False) == \
        variants.select(torch.bfloat16, 64, False, False, seq_k=16384, sm90=False)


@pytest.mark.gpu
@pytest.mark.parametrize("timing", ["graph", "eager"])
def test_tune_times_every_candidate_on_the_gpu(cache_dir, timing):
    """Both timings run every candidate of a short class (D=128, S=512, causal) and store a positive time
    for each; the choice is the fastest of them."""
    cands = tune.candidate_variants(torch.bfloat16, 128, True, True)
    got = tune.tune(torch.bfloat16, 128, True, 512, reps=6, sm90=True, timing=timing)
    entry = json.loads((cache_dir / "tune.json").read_text())
    (entry,) = entry.values()
    assert entry["timing"] == timing and set(entry["ms"]) == {v.name for v in cands}
    assert all(ms > 0 for ms in entry["ms"].values())
    assert got.name == min(entry["ms"], key=entry["ms"].get)


def test_a_grid_of_few_programs_takes_its_variant(cache_dir, monkeypatch):
    """(1, 8, 512, 64): 64 programs of 64 rows on 132 SMs, twice the grid fits: the cluster build
    (SM90_FEW_PROGRAMS_CLUSTER_N64, session 43); 67-132 programs take SM90_FEW_PROGRAMS_MID (the Gluon one-consumer
    tiles; below FEW_PROGRAMS_MID_SEQ keys SM90_FEW_PROGRAMS, pointer loads), even over a cached choice for the class;
    1,024 programs, other head dims and other GPUs do not."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    few = variants.Variant(*variants.SM90_FEW_PROGRAMS_MID[(64, False)], torch.bfloat16, 64, False)
    fewer_keys = variants.Variant(*variants.SM90_FEW_PROGRAMS[(64, False)], torch.bfloat16, 64, False)
    cluster = variants.Variant(*variants.SM90_FEW_PROGRAMS_CLUSTER_N64[(64, False)], torch.bfloat16, 64, False)
    assert few.kernel == "attn_fwd_sm90_ws" and few.config.split == 1 and fewer_keys.kernel == "attn_fwd"
    assert {few, fewer_keys, cluster} <= set(variants.shipped_variants())  # audited
    other = next(v for v in tune.candidate_variants(torch.bfloat16, 64, False, True) if v not in (few, fewer_keys))
    mid = variants.FEW_PROGRAMS_MID_SEQ
    assert mid == variants.FEW_PROGRAMS_CLUSTER_SEQ
    for seq_k in (mid - 1, mid):  # mid = 512: the protocol's (1, 8, 512, 64)
        key = tune.cache_key("Fake H200 sm90", torch.bfloat16, 64, False, seq_k)
        (cache_dir / "tune.json").write_text(json.dumps({key: {"variant": other.name}}))
        tune._chosen.clear()
        want = few if seq_k >= mid else fewer_keys
        assert tune.choose(torch.bfloat16, 64, False, seq_k, CPU, sm90=True, programs=64) == \
            (cluster if seq_k >= mid else fewer_keys)
        assert tune.choose(torch.bfloat16, 64, False, seq_k, CPU, sm90=True, programs=67) == want
        assert tune.choose(torch.bfloat16, 64, False, seq_k, CPU, sm90=True, programs=132) == want
        assert tune.choose(torch.bfloat16, 64, False, seq_k, CPU, sm90=True, programs=133) == other
        assert tune.choose(torch.bfloat16, 64, False, seq_k, CPU, sm90=True, programs=64) not in (few, other)
        assert tune.choose(torch.bfloat16, 64, False, seq_k, CPU, sm90=False, programs=64) not in \
            (few, fewer_keys, cluster)
    # causal keeps the pointer-load tiles at every length below the split-key one where twice the grid does not fit
    assert tune.choose(torch.bfloat16, 64, True, 512, CPU, sm90=True, programs=100) == \
        variants.Variant(*variants.SM90_FEW_PROGRAMS[(64, True)], torch.bfloat16, 64, True)
    assert tune.choose(torch.bfloat16, 128, False, 512, CPU, sm90=True, programs=64).head_dim == 128
    # past the short-tile lengths: two-CTA clusters two an SM (D <= 64) or split keys inside a program (D=128; next
    # tests), across programs where twice the grid fits the SMs, and the long-sequence variant for more programs than SMs
    assert tune.choose(torch.bfloat16, 64, False, 16384, CPU, sm90=True, programs=100).config.maxnreg == 128
    assert tune.choose(torch.bfloat16, 128, False, 16384, CPU, sm90=True, programs=100).config.split_k
    # (eight parts and more fill every SM at D <= 64, half of them at D > 64: variants.SPLIT_KV_ALL_SMS_MAX_D)
    assert tune.choose(torch.bfloat16, 64, False, 16384, CPU, sm90=True, programs=8).config.split_kv == 16
    assert tune.choose(torch.bfloat16, 64, False, 16384, CPU, sm90=True, programs=9).config.split_kv == 8
    assert tune.choose(torch.bfloat16, 64, False, 16384, CPU, sm90=True, programs=20).config.split_kv == 4
    assert tune.choose(torch.bfloat16, 64, False, 16384, CPU, sm90=True, programs=133) == \
        variants.select(torch.bfloat16, 64, False, False, seq_k=16384, sm90=True)


@pytest.mark.parametrize("d", [128])
@pytest.mark.parametrize("causal", [False, True])
def test_few_programs_with_long_keys_split_the_keys(cache_dir, monkeypatch, d, causal):
    """D=128 (D=64 since session 45: the two-CTA clusters two an SM, next test), few programs, seq_k >=
    FEW_PROGRAMS_LONG_SEQ, at every length: the two-consumer split-key Gluon build, causal with one tile per program
    (unpaired); shorter keys keep the few-program tiles, more programs the usual choice; D=256 never splits keys."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    long_k = variants.FEW_PROGRAMS_LONG_SEQ[causal]
    v = tune.choose(torch.bfloat16, d, causal, long_k, CPU, sm90=True, programs=128)
    assert v.config.split_k and v.config.split == 2 and v in variants.shipped_variants()
    assert v.config.unpaired == causal
    for seq_k in (4096, 16384, 131072):  # past the short-tile lengths too (session 13)
        assert tune.choose(torch.bfloat16, d, causal, seq_k, CPU, sm90=True, programs=128) == v
    short = tune.choose(torch.bfloat16, d, causal, long_k - 1, CPU, sm90=True, programs=128)
    tiles = variants.SM90_FEW_PROGRAMS_MID.get((d, causal), variants.SM90_FEW_PROGRAMS[(d, causal)])
    assert short == variants.Variant(*tiles, torch.bfloat16, d, causal)
    beyond = 265 if causal else 133  # causal grids of up to twice the SMs split too (next test)
    assert not tune.choose(torch.bfloat16, d, causal, long_k, CPU, sm90=True, programs=beyond).config.split_k
    wide = tune.choose(torch.bfloat16, 256, causal, long_k, CPU, sm90=True, programs=128)
    assert not wide.config.split_k and wide.kernel == "attn_fwd_sm90_ws"


@pytest.mark.parametrize("causal", [False, True])
def test_grids_of_up_to_the_sm_count_run_clusters_two_an_sm(cache_dir, monkeypatch, causal):
    """SM count / 2 < programs <= SM count, seq_k >= FEW_PROGRAMS_CLUSTER_2X_SEQ (512 keys fewer at D=32), D <= 64
    (32, 64): the two-CTA cluster build on 128-key blocks at 128 registers at launch (TileConfig.maxnreg; two CTAs an
    SM; session 45), at every length; fewer keys, one program more, fewer programs (the one-CTA-an-SM cluster builds)
    and D > 64 keep the choices before it."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    assert [variants.cluster_2x_seq(d) for d in (32, 64)] == [512, 1024]
    for d in (32, 64):
        least = variants.cluster_2x_seq(d)
        v = tune.choose(torch.bfloat16, d, causal, least, CPU, sm90=True, programs=67)
        assert v.config.cluster and v.config.split_kv == 2 and v.config.maxnreg == 128 and v.config.block_n == 128
        assert v in variants.shipped_variants() and "r128" in v.name and "WS" not in v.secret_args
        for seq_k, programs in ((least, 132), (4096, 100), (131072, 128)):
            assert tune.choose(torch.bfloat16, d, causal, seq_k, CPU, sm90=True, programs=programs) == v
        assert tune.choose(torch.bfloat16, d, causal, least - 1, CPU, sm90=True, programs=100) != v
        assert tune.choose(torch.bfloat16, d, causal, least, CPU, sm90=True, programs=133) != v
        assert not tune.choose(torch.bfloat16, d, causal, least, CPU, sm90=True, programs=66).config.maxnreg
    for d in (96, 128, 256):
        assert not tune.choose(torch.bfloat16, d, causal, 1024, CPU, sm90=True, programs=100).config.cluster


@pytest.mark.parametrize("causal", [False, True])
def test_few_programs_with_room_for_twice_the_grid_run_clusters_of_two(cache_dir, monkeypatch, causal):
    """2 x programs <= SM count, seq_k >= variants.cluster_seq (FEW_PROGRAMS_CLUSTER_SEQ; 128 keys fewer at D=128
    without causal masking since session 45), D <= 128 (32, 64, 96, 128): the two programs of a
    tile as one cluster (TileConfig.cluster; session 43), 64-key blocks below FEW_PROGRAMS_CLUSTER_N128_SEQ[causal] keys
    and 128-key ones from there, at every length where no four-way split applies; no workspace or flags for the
    auditor (the meeting is in shared memory); one program more, fewer keys, D > 128 or packed tiles keep the choices
    before it."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    wide = variants.FEW_PROGRAMS_CLUSTER_N128_SEQ[causal]
    assert [variants.cluster_seq(d, causal) for d in (32, 64, 96, 128)] == [512, 512] + [512 if causal else 384] * 2
    for d in (32, 64, 96, 128):
        least = variants.cluster_seq(d, causal)
        narrow = tune.choose(torch.bfloat16, d, causal, least, CPU, sm90=True, programs=66)
        assert narrow.config.cluster and narrow.config.split_kv == 2 and narrow.config.block_n == 64
        assert narrow.config.num_stages == 3 and narrow in variants.shipped_variants()
        assert "WS" not in narrow.secret_args and narrow.public_loads == ()
        assert tune.choose(torch.bfloat16, d, causal, wide - 1, CPU, sm90=True, programs=66) == narrow
        v = tune.choose(torch.bfloat16, d, causal, wide, CPU, sm90=True, programs=66)
        assert v.config.cluster and v.config.block_n == 128 and v in variants.shipped_variants()
        for seq_k in (4096, 16384, 131072):
            assert tune.choose(torch.bfloat16, d, causal, seq_k, CPU, sm90=True, programs=34) == v
        assert not tune.choose(torch.bfloat16, d, causal, least - 1, CPU, sm90=True, programs=66).config.split_kv
        more = tune.choose(torch.bfloat16, d, causal, wide, CPU, sm90=True, programs=67)  # two an SM, D <= 64
        assert more != v and more.config.cluster == (d <= 64 and wide >= variants.cluster_2x_seq(d))
        # four parts where four times the grid fits, from FEW_PROGRAMS_SPLIT_KV4_SEQ keys: pairs of parts as clusters
        # of two under a global meeting (CL_TREE, session 47: the workspace and flags again)
        v4 = tune.choose(torch.bfloat16, d, causal, variants.FEW_PROGRAMS_SPLIT_KV4_SEQ, CPU, sm90=True, programs=33)
        assert v4.config.split_kv == 4 and v4.config.cluster and v4 in variants.shipped_variants()
        assert "WS" in v4.secret_args and v4.public_loads == ("FLAGS",)
        with monkeypatch.context() as mp:  # the switch: the global tree's build
            mp.setattr(variants, "SM90_FEW_PROGRAMS_CL_TREE", {})
            glob = tune.choose(torch.bfloat16, d, causal, variants.FEW_PROGRAMS_SPLIT_KV4_SEQ, CPU, sm90=True,
                               programs=33)
            assert glob.config.split_kv == 4 and not glob.config.cluster
    for d in (192, 256):  # two accumulators of 64 x 256 fp32 in a merge: the global meetings from the workspace
        other = tune.choose(torch.bfloat16, d, causal, variants.FEW_PROGRAMS_SPLIT_KV_SEQ, CPU, sm90=True, programs=66)
        assert other.config.split_kv == 2 and not other.config.cluster
    packed = variants.packed_variant(torch.bfloat16, 128, causal, 4, 1500, 16, 4, 4, 132)
    assert packed.config.pack and packed.config.split_kv == 2 and not packed.config.cluster


@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_few_programs_with_room_for_twice_the_grid_split_keys_across_programs(cache_dir, monkeypatch, d, causal):
    """2 x programs <= SM count, seq_k >= FEW_PROGRAMS_SPLIT_KV_SEQ: two programs per tile (SPLIT_KV), past the
    short-tile lengths too; one program more and fewer keys keep the choices before it (the split inside a
    program, the one-program tiles, the long-sequence builds), D=256 its own. The workspace is declared secret to
    the auditor and the flags public. (The cluster builds, which take the two-part split's place at D <= 128, are off
    here: the next test.)"""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    monkeypatch.setattr(variants, "FEW_PROGRAMS_CLUSTER_SEQ", 1 << 40)
    monkeypatch.setattr(variants, "FEW_PROGRAMS_CLUSTER_2X_SEQ", 1 << 40)
    seq = variants.FEW_PROGRAMS_SPLIT_KV_SEQ
    v = tune.choose(torch.bfloat16, d, causal, seq, CPU, sm90=True, programs=66)
    assert v.config.split_kv and v.causal == causal and v in variants.shipped_variants()
    assert "WS" in v.secret_args and v.public_loads == ("FLAGS",)
    for seq_k in (4096, 16384, 131072):
        assert tune.choose(torch.bfloat16, d, causal, seq_k, CPU, sm90=True, programs=34) == v
    assert tune.choose(torch.bfloat16, d, causal, 16384, CPU, sm90=True, programs=67).config.split_k
    assert tune.choose(torch.bfloat16, d, causal, 16384, CPU, sm90=True, programs=133) == \
        variants.select(torch.bfloat16, d, causal, False, seq_k=16384, sm90=True)
    if not causal:  # causal grids split keys inside a program from FEW_PROGRAMS_LONG_SEQ[True] = 2048 keys
        assert tune.choose(torch.bfloat16, d, causal, seq, CPU, sm90=True, programs=67).config.split_k
    assert not tune.choose(torch.bfloat16, d, causal, seq - 1, CPU, sm90=True, programs=66).config.split_kv
    # D=256 splits too, with its own tiles: 64-key blocks (64x128 tiles do not fit its shared memory), meetings from
    # the workspace (sm90_fwd WS_MERGE: two 64 x 256 fp32 accumulators in registers spilled, session 14)
    wide = tune.choose(torch.bfloat16, 256, causal, seq, CPU, sm90=True, programs=66)
    assert wide.config.split_kv == 2 and wide.config.block_n == 64 and wide in variants.shipped_variants()
    # ... and D=32 / 96 with the 64x128 tiles, D=192 with D=256's (D=96 / 192 run as 128 / 256, zero-filled)
    for d_other, block_n in ((32, 128), (96, 128), (192, 64)):
        other = tune.choose(torch.bfloat16, d_other, causal, seq, CPU, sm90=True, programs=66)
        assert other.config.split_kv == 2 and other.config.block_n == block_n and other in variants.shipped_variants()
    assert v.config.split_kv == 2
    # four programs per tile where four times the grid fits, from FEW_PROGRAMS_SPLIT_KV4_SEQ keys
    m = 2 if d <= variants.SPLIT_KV_ALL_SMS_MAX_D else 1  # (session 46)
    seq4 = variants.FEW_PROGRAMS_SPLIT_KV4_SEQ
    v4 = tune.choose(torch.bfloat16, d, causal, seq4, CPU, sm90=True, programs=33)
    assert v4.config.split_kv == 4 and v4.causal == causal and v4 in variants.shipped_variants()
    assert v4.public_loads == ("FLAGS",) and "WS" in v4.secret_args
    assert tune.choose(torch.bfloat16, d, causal, 131072, CPU, sm90=True, programs=9 * m) == v4
    assert tune.choose(torch.bfloat16, d, causal, seq4 - 1, CPU, sm90=True, programs=33) == v
    assert tune.choose(torch.bfloat16, d, causal, seq4, CPU, sm90=True, programs=34) == v
    # eight and sixteen where that many times the grid fits half of the SMs (66), or all of them at D <=
    # SPLIT_KV_ALL_SMS_MAX_D (grids of m times the programs), from FEW_PROGRAMS_SPLIT_KV8_SEQ / _KV16_SEQ keys
    seq8, seq16 = variants.FEW_PROGRAMS_SPLIT_KV8_SEQ, variants.FEW_PROGRAMS_SPLIT_KV16_SEQ
    v8 = tune.choose(torch.bfloat16, d, causal, seq8, CPU, sm90=True, programs=8 * m)
    assert v8.config.split_kv == 8 and v8.causal == causal and v8 in variants.shipped_variants()
    assert v8.public_loads == ("FLAGS",) and "WS" in v8.secret_args
    assert tune.choose(torch.bfloat16, d, causal, seq8 - 1, CPU, sm90=True, programs=8 * m) == v4
    assert tune.choose(torch.bfloat16, d, causal, 131072, CPU, sm90=True, programs=9 * m) == v4
    assert tune.choose(torch.bfloat16, d, causal, 131072, CPU, sm90=True, programs=5 * m) == v8
    v16 = tune.choose(torch.bfloat16, d, causal, seq16, CPU, sm90=True, programs=4 * m)
    assert v16.config.split_kv == 16 and v16.causal == causal and v16 in variants.shipped_variants()
    assert tune.choose(torch.bfloat16, d, causal, seq16 - 1, CPU, sm90=True, programs=4 * m) == v8
    assert tune.choose(torch.bfloat16, d, causal, 131072, CPU, sm90=True, programs=3 * m) == v16
    # 32 and 64 for one or two tiles, from FEW_PROGRAMS_SPLIT_KV32_SEQ / FEW_PROGRAMS_SPLIT_KV64_SEQ keys
    seq32, seq64 = variants.FEW_PROGRAMS_SPLIT_KV32_SEQ, variants.FEW_PROGRAMS_SPLIT_KV64_SEQ
    v32 = tune.choose(torch.bfloat16, d, causal, seq32, CPU, sm90=True, programs=2 * m)
    assert v32.config.split_kv == 32 and v32 in variants.shipped_variants()
    assert tune.choose(torch.bfloat16, d, causal, seq32 - 1, CPU, sm90=True, programs=2 * m) == v16
    v64 = tune.choose(torch.bfloat16, d, causal, seq64, CPU, sm90=True, programs=1 * m)
    assert v64.config.split_kv == 64 and v64 in variants.shipped_variants()
    assert tune.choose(torch.bfloat16, d, causal, seq64 - 1, CPU, sm90=True, programs=1 * m) == v32
    assert tune.choose(torch.bfloat16, d, causal, 131072, CPU, sm90=True, programs=2 * m) == v32
    plain = variants.Variant(*variants.SM90_FEW_PROGRAMS_MID[(d, False)], torch.bfloat16, d, False)
    assert "WS" not in plain.secret_args and plain.public_loads == ()


@pytest.mark.parametrize("causal", [False, True])
def test_three_consumer_tiles_at_the_short_tile_lengths_need_long_query_sequences(cache_dir, monkeypatch, causal):
    """D=64 on sm_90 with keys past GLUON_LONG_SEQ_K but at the short tiles' lengths: the three-consumer 192-row tiles
    for more than GLUON_LONG_MIN_SEQ_Q queries per head, the short tiles for fewer; at and below GLUON_LONG_SEQ_K the
    short tiles, past the short-tile lengths the 192-row tiles (unchanged); D=128 unchanged."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    tune._chosen.clear()
    bf16 = torch.bfloat16
    short = variants.Variant(*variants.SM90_SHORT[64], bf16, 64, causal)
    x3 = variants.Variant(*variants.SM90_GLUON_LONG[64], bf16, 64, causal)
    assert x3.config.split == 3 and short.config.block_m == 64 and {short, x3} <= set(variants.shipped_variants())
    lo = variants.GLUON_LONG_SEQ_K[causal]
    hi = variants.SHORT_SEQ_K_CAUSAL if causal else variants.SHORT_SEQ_K
    many = variants.GLUON_LONG_MIN_SEQ_Q + 1
    for seq_k in (lo + 1, hi):
        assert variants.select(bf16, 64, causal, False, seq_k=seq_k, sm90=True) == x3
        assert tune.choose(bf16, 64, causal, seq_k, CPU, sm90=True, programs=4096, seq_q=many) == x3
        for seq_q in (variants.GLUON_LONG_MIN_SEQ_Q, 200):
            assert tune.choose(bf16, 64, causal, seq_k, CPU, sm90=True, programs=4096, seq_q=seq_q) == short
    assert tune.choose(bf16, 64, causal, lo, CPU, sm90=True, programs=4096, seq_q=4096) == short
    assert tune.choose(bf16, 64, causal, hi + 1, CPU, sm90=True, programs=4096, seq_q=512) == x3
    assert tune.choose(bf16, 64, causal, lo + 1, CPU, sm90=False, programs=4096, seq_q=many) != x3
    assert tune.choose(bf16, 128, causal, lo + 1, CPU, sm90=True, programs=4096, seq_q=many) == \
        variants.select(bf16, 128, causal, False, seq_k=lo + 1, sm90=True)


@pytest.mark.parametrize("causal", [False, True])
def test_one_query_tile_per_head_takes_the_short_tiles(cache_dir, monkeypatch, causal):
    """At most FEW_PROGRAMS_ROWS queries per head (decode-like) on more programs than SMs, D=64: the 64-row short
    tiles at every length (SM90_ONE_TILE), even over a cached choice; up to twice that past the short-tile lengths
    the 128-row tiles (SM90_TWO_TILES); more queries, other head dims (but D=128 non-causal: SM90_ONE_TILE_FULL), other
    GPUs and grids of few programs keep their choices."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    want = variants.Variant(*variants.SM90_SHORT[64], torch.bfloat16, 64, causal)
    assert want in variants.shipped_variants()
    other = next(v for v in tune.candidate_variants(torch.bfloat16, 64, causal, True) if v != want)
    key = tune.cache_key("Fake H200 sm90", torch.bfloat16, 64, causal, 16384)
    (cache_dir / "tune.json").write_text(json.dumps({key: {"variant": other.name}}))
    tune._chosen.clear()
    for seq_q in (1, 16, variants.FEW_PROGRAMS_ROWS):
        assert tune.choose(torch.bfloat16, 64, causal, 16384, CPU, sm90=True, programs=1024, seq_q=seq_q) == want
    two = variants.Variant(*variants.SM90_TWO_TILES[64], torch.bfloat16, 64, causal)
    assert two in variants.shipped_variants() and two.config.block_m == 128
    for seq_q in (65, 2 * variants.FEW_PROGRAMS_ROWS):
        assert tune.choose(torch.bfloat16, 64, causal, 16384, CPU, sm90=True, programs=1024, seq_q=seq_q) == two
    assert tune.choose(torch.bfloat16, 64, causal, 16384, CPU, sm90=True, programs=1024, seq_q=129) == other
    assert tune.choose(torch.bfloat16, 64, causal, 1024, CPU, sm90=True, programs=1024, seq_q=100) == \
        variants.select(torch.bfloat16, 64, causal, False, seq_k=1024, sm90=True)  # short-tile lengths
    assert tune.choose(torch.bfloat16, 128, causal, 16384, CPU, sm90=True, programs=1024, seq_q=1) == (
        variants.Variant(*variants.SM90_ONE_TILE_FULL[128], torch.bfloat16, 128, causal) if not causal else
        variants.select(torch.bfloat16, 128, causal, False, seq_k=16384, sm90=True))  # (D=128: session 46)
    assert tune.choose(torch.bfloat16, 64, causal, 16384, CPU, sm90=False, programs=1024, seq_q=1) != want
    assert tune.choose(torch.bfloat16, 64, causal, 16384, CPU, sm90=True, programs=128, seq_q=1).config.maxnreg == 128
    assert tune.choose(torch.bfloat16, 128, causal, 16384, CPU, sm90=True, programs=128, seq_q=1).config.split_k


@pytest.mark.parametrize("d", [64, 128])
def test_causal_grids_of_up_to_twice_the_sms_split_the_keys(cache_dir, monkeypatch, d):
    """Causal, SM count < programs <= 2 x SM count, seq_k >= FEW_PROGRAMS_CAUSAL_2X_SEQ: the split-key build;
    non-causal, shorter keys, larger grids and D=256 keep the usual choice."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    seq = variants.FEW_PROGRAMS_CAUSAL_2X_SEQ
    v = tune.choose(torch.bfloat16, d, True, seq, CPU, sm90=True, programs=256)
    assert v.config.split_k and not v.config.unpaired and v in variants.shipped_variants()  # pairs balance two waves
    assert tune.choose(torch.bfloat16, d, True, seq, CPU, sm90=True, programs=264).config.split_k
    for kw in (dict(causal=True, seq_k=seq, programs=265), dict(causal=True, seq_k=seq - 1, programs=256),
               dict(causal=False, seq_k=seq, programs=256)):
        got = tune.choose(torch.bfloat16, d, kw["causal"], kw["seq_k"], CPU, sm90=True, programs=kw["programs"])
        if kw["seq_k"] < seq and d in variants.FEW_PROGRAMS_CAUSAL_SHORT:  # the short tiles there (session 46)
            assert got == variants.Variant(*variants.SM90_SHORT[d], torch.bfloat16, d, True)
            continue
        assert got == variants.select(torch.bfloat16, d, kw["causal"], False, seq_k=kw["seq_k"], sm90=True), kw
    assert not tune.choose(torch.bfloat16, 256, True, seq, CPU, sm90=True, programs=256).config.split_k


@pytest.mark.parametrize("d", [128, 256])
@pytest.mark.parametrize("causal", [False, True])
def test_few_programs_at_wide_heads_take_64_row_tiles(cache_dir, monkeypatch, d, causal):
    """(1, 8, 512, 128 / 256): 64 programs take 64-row tiles (at D=128 the cluster build, twice the grid fitting the
    SMs; non-causal D=256: the Gluon kernel with one consumer warpgroup; causal: the TMA short tiles) instead of the
    128-row persistent Gluon tiles; 133 programs keep the usual choice (causal D=128: 265, the short tiles up to
    twice the SM count below FEW_PROGRAMS_CAUSAL_2X_SEQ keys since session 46)."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    few = tune.choose(torch.bfloat16, d, causal, 512, CPU, sm90=True, programs=64)
    assert few.config.block_m == 64 and few in variants.shipped_variants()
    assert few.kernel == ("attn_fwd_tma" if causal and d == 256 else "attn_fwd_sm90_ws")
    assert few.config.cluster == (d == 128)
    usual = tune.choose(torch.bfloat16, d, causal, 512, CPU, sm90=True, programs=133 if not causal or d == 256 else 265)
    assert usual == variants.select(torch.bfloat16, d, causal, False, seq_k=512, sm90=True) != few


@pytest.mark.parametrize("causal", [False, True])
def test_padded_head_dims_take_the_builds_of_their_kernel_dim(cache_dir, monkeypatch, causal):
    """D=96 / 192 run every Hopper choice of D=128 / 256 (the kernel pads them: sm90_fwd.kernel_head_dim), on grids of
    every size and at every length; only the head dim of the variant differs. The CPU choices stay their own."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    for padded, kernel_dim in variants.PADDED_HEAD_DIMS.items():
        for programs in (1, 8, 33, 66, 128, 200, 264, 4096, None):
            for seq_k in (1, 64, 512, 1024, 2048, 4096, 8192, 16384, 131072):
                v = tune.choose(torch.bfloat16, padded, causal, seq_k, CPU, sm90=True, programs=programs)
                same = tune.choose(torch.bfloat16, kernel_dim, causal, seq_k, CPU, sm90=True, programs=programs)
                assert (v.kernel, v.config, v.head_dim) == (same.kernel, same.config, padded)
                assert v in variants.shipped_variants()
        portable = variants.select(torch.bfloat16, padded, causal, False, seq_k=16384, sm90=False)
        assert portable.kernel in variants.TRITON_KERNELS


def test_pack_heads_spreads_the_group_over_as_few_tiles_as_fit():
    """Packed tiles per key/value head: as few as hold the group, each head taking ceil(queries / 8) 8-row slots of the
    64-row tile; query heads per tile: the group spread evenly over them (the last tile of a group holds fewer where
    that does not divide it); 0 where not even one head fits."""
    ph, pb = variants.pack_heads, variants.pack_blocks
    assert (variants.PACK_ROWS, variants.PACK_MAX_QUERIES) == (8, 64)
    assert [ph(g, 4) for g in range(1, 11)] == [1, 2, 3, 4, 5, 6, 7, 8, 5, 5]
    assert [pb(g, 4) for g in range(1, 11)] == [1] * 8 + [2, 2]
    assert [ph(g, 8) for g in (7, 8, 16, 32)] == [7, 8, 8, 8]
    assert [ph(g, 9) for g in (2, 4, 6, 7, 8, 14)] == [2, 4, 3, 4, 4, 4]  # two slots per head: at most 4 heads
    assert [pb(g, 9) for g in (2, 4, 6, 7, 8, 14)] == [1, 1, 2, 2, 2, 4]
    assert [ph(g, 16) for g in (3, 5, 12)] == [3, 3, 4]
    assert ph(4, 17) == 2 and ph(4, 65) == 0 and pb(4, 65) == 0  # three slots a head: two heads a tile; past 64 rows
    assert ph(4, 4, slot_rows=16) == 4 and ph(8, 2, slot_rows=16) == 4
    # 128-row tiles (16 slots; the two-consumer builds, session 18): a head's slots round up to a power of two, as the
    # kernel lays them out (sm90_fwd._pack_shift): 3 slots take 4, so at most 4 heads a tile (not 5)
    assert [ph(g, 40, 128) for g in (2, 4, 5, 7, 8)] == [2, 2, 2, 2, 2] and pb(7, 40, 128) == 4
    assert [pb(g, 20, 128) for g in (4, 5, 8)] == [1, 2, 2] and ph(5, 20, 128) == 3
    assert ph(16, 8, 128) == 16 and ph(4, 64, 128) == 2 and ph(4, 65, 128) == 1 and pb(4, 129, 128) == 0


@pytest.mark.parametrize("causal", [False, True])
def test_queries_of_grouped_heads_pack_where_the_packed_grid_splits(causal):
    """2-32 queries per sequence with groups that pack_heads packs 2 or more at a time: the packed split build whose
    part count the split rules give the packed grid (batch * heads / pack_heads tiles), else the packed build without
    a split (one program per packed tile); other calls None (they run unpacked)."""
    pv = variants.packed_variant
    rows = variants.PACK_ROWS
    for d in variants.HEAD_DIMS:  # 8 packed tiles: 16 parts (all of the SMs) at D <= 64, 8 (half of them) above
        v = pv(torch.bfloat16, d, causal, 4, 8192, 32, 8, 1, 132)
        assert v.config.pack == rows and v.config.split_kv == (16 if d <= 64 else 8)
        assert v in variants.shipped_variants()
        assert v.config.block_n == (128 if d <= 128 else 64) and v.causal == causal and v.head_dim == d
    # D=128: 8-64 parts on half of the SMs (PACKED_SPLIT_KV_SHARE, session 47); 2 and 4 parts on all of them
    assert pv(torch.bfloat16, 128, causal, 16, 4096, 32, 8, 2, 132).config.split_kv == 4  # 4 heads a tile: 16 tiles
    assert pv(torch.bfloat16, 64, causal, 16, 4096, 32, 8, 2, 132).config.split_kv == 8
    assert pv(torch.bfloat16, 128, causal, 8, 32768, 64, 8, 1, 132).config.split_kv == 8  # 8 heads a tile: 8 tiles
    assert pv(torch.bfloat16, 128, causal, 2, 40000, 8, 1, 1, 132).config.split_kv == 64  # MQA: 1 tile
    assert pv(torch.bfloat16, 128, causal, 3, 1500, 16, 4, 4, 132).config.split_kv == 2
    assert pv(torch.bfloat16, 128, causal, 4, 8192, 16, 8, 1, 132).config.split_kv == 8  # groups of 2: 8 tiles
    assert pv(torch.bfloat16, 128, causal, 4, 8192, 24, 4, 1, 132).config.split_kv == 16  # groups of 6: 4 tiles
    assert pv(torch.bfloat16, 128, causal, 8, 8192, 28, 4, 1, 132).config.split_kv == 16  # groups of 7: 4 tiles
    assert pv(torch.bfloat16, 128, causal, 17, 8192, 32, 8, 1, 132).config.split_kv == 4  # 2 heads a tile: 16 tiles
    assert pv(torch.bfloat16, 128, causal, 32, 9000, 8, 2, 1, 132).config.split_kv == 16  # 4 tiles
    assert pv(torch.bfloat16, 128, causal, 20, 8192, 28, 4, 1, 132).config.split_kv == 4  # 4 tiles of 2, 2, 2, 1
    assert pv(torch.bfloat16, 128, causal, 8, 32768, 32, 4, 1, 132).config.split_kv == 16  # 4 tiles: not 32
    assert pv(torch.bfloat16, 64, causal, 8, 32768, 32, 4, 1, 132).config.split_kv == 32
    variants.PACKED_SPLIT_KV_SHARE = False  # (the switch: every SM at every head dim, as before session 47)
    try:
        assert pv(torch.bfloat16, 128, causal, 4, 8192, 32, 8, 1, 132).config.split_kv == 16
    finally:
        variants.PACKED_SPLIT_KV_SHARE = True
    # session 18: 128-row tiles of two consumers (SM90_PACKED_PP) where 2 x their tiles exceed the SMs and a group needs
    # two or more 64-row tiles (or has 33-64 queries, at D >= 96)
    pp = variants.Variant(*variants.SM90_PACKED_PP[(128, causal)], torch.bfloat16, 128, causal)
    assert pp in variants.shipped_variants() and (pp.config.block_m, pp.config.split, pp.config.pack) == (128, 2, rows)
    assert pp.config.persistent and pp.config.pingpong and not pp.config.split_kv
    for sq in (33, 48, 64):  # 2 heads a tile: 8 x 8 x 2 = 128 tiles
        assert pv(torch.bfloat16, 128, causal, sq, 4096, 32, 8, 8, 132) == pp
        assert pv(torch.bfloat16, 128, causal, sq, 4096, 32, 8, 4, 132) is None  # 64 tiles: unpacked (it splits)
        assert pv(torch.bfloat16, 64, causal, sq, 4096, 32, 8, 8, 132) is None  # D=64 past 32 queries: unpacked
    assert pv(torch.bfloat16, 256, causal, 40, 4096, 28, 4, 6, 132).config.block_n == 64  # groups of 7: 2, 2, 2, 1
    assert pv(torch.bfloat16, 128, causal, 32, 4096, 32, 8, 16, 132) == pp  # 17-32 queries: 4 heads a tile, 128 tiles
    assert pv(torch.bfloat16, 64, causal, 32, 4096, 32, 8, 16, 132).config.split == 2  # D=64 up to 32 queries too
    assert pv(torch.bfloat16, 128, causal, 8, 4096, 64, 8, 64, 132).config.block_m == 64  # a group fits 64 rows
    assert pv(torch.bfloat16, 128, causal, 65, 8192, 32, 8, 64, 132) is None  # more than 64 queries
    # past 32 queries: two waves of 128-row tiles (144) where the unpacked grid (240) fits twice the SMs: unpacked
    assert pv(torch.bfloat16, 128, causal, 43, 4096, 5, 1, 48, 132) is None
    assert pv(torch.bfloat16, 128, causal, 43, 4096, 4, 1, 72, 132) == pp  # 288 heads x sequences
    assert pv(torch.bfloat16, 128, causal, 50, 1000, 4, 1, 66, 132) == pp  # 132 tiles: one wave
    assert pv(torch.bfloat16, 128, causal, 20, 700, 5, 1, 48, 132) == pp  # up to 32 queries: no such limit
    assert pv(torch.bfloat16, 128, causal, 1, 8192, 32, 8, 1, 132) is None  # one query: api.pack_gqa's path
    assert pv(torch.bfloat16, 128, causal, 9, 8192, 28, 4, 1, 132).config.split_kv == 8  # groups of 7: 4 + 3 heads
    assert pv(torch.bfloat16, 128, causal, 4, 8192, 8, 8, 1, 132) is None  # no groups (MHA)
    # shipped (audited), but not the autotuner's: it times 16K-token shapes, which packed builds refuse
    assert not any(v.config.pack for v in tune.candidate_variants(torch.bfloat16, 128, causal, True))
    for unsplit in (pv(torch.bfloat16, 128, causal, 4, 1023, 32, 8, 1, 132),  # too few keys to split
                    pv(torch.bfloat16, 128, causal, 4, 8192, 32, 8, 64, 132)):  # 512 tiles: too many to split
        assert unsplit.config.pack == rows and unsplit.config.split_kv == 1 and unsplit in variants.shipped_variants()


def test_few_heads_past_the_short_tile_lengths_fill_the_last_wave(cache_dir, monkeypatch):
    """Non-causal D=64 past GLUON_LONG_SEQ_K keys, where select runs the 192-row persistent build: of that build, the
    128-row two-consumer build (session 46) and, up to SHORT_SEQ_K keys, the short tiles (session 45), the one whose
    waves take least time in the model of variants.long_tiles_fill (waves x rows x LONG_TILES_X2_EDGE / LONG_TILES_EDGE
    (_TWO where no SM holds more than two short tiles); ties to the 192-row build, then the short tiles),
    even over a cached choice; the 192-row build where its waves are full; causal calls and other head dims keep their
    choices."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    x3 = variants.Variant(*variants.SM90_GLUON_LONG[64], torch.bfloat16, 64, False)
    short = variants.Variant(*variants.SM90_SHORT[64], torch.bfloat16, 64, False)
    x2 = variants.Variant(*variants.SM90_LONG_FILL_X2[64], torch.bfloat16, 64, False)
    assert x2 in variants.shipped_variants() and x2.config.block_m == 128 and x2.config.split == 2
    assert variants.select(torch.bfloat16, 64, False, False, seq_k=4096, sm90=True) == x3

    def pick(h, s, sk=None, causal=False, d=64):
        return tune.choose(torch.bfloat16, d, causal, sk or s, CPU, sm90=True, programs=h * -(-s // 64), seq_q=s)
    key = tune.cache_key("Fake H200 sm90", torch.bfloat16, 64, False, 4096)
    (cache_dir / "tune.json").write_text(json.dumps({key: {"variant": x3.name}}))
    tune._chosen.clear()
    # (heads, queries = keys) -> the model's choice (session 46 calls 2-3 measured the three at 2,048 keys 8 / 16 / 24
    # heads, 3,072 keys 8 / 12, 4,096 keys 6 / 8 / 12 / 16, 8,192 keys 4 / 8; the API both ways at 6 / 40 x 2,048, ...)
    for (h, s), want in {(6, 2048): x2, (8, 2048): x2, (10, 2048): x3, (12, 2048): x3, (16, 2048): short, (24, 2048): x3,
                         (32, 2048): x3, (40, 2048): short, (6, 4096): x3, (8, 4096): short, (12, 4096): x3,
                         (16, 4096): x3, (20, 4096): short, (64, 4096): x3, (8, 3072): x3, (12, 3072): short, (20, 2048): short,
                         (4, 8192): x2, (8, 8192): x3, (1, 32768): x2, (32, 16384): x3}.items():
        assert pick(h, s) == want, (h, s)
    # causal: the 192-row build's paired units where they fill one wave to LONG_TILES_CAUSAL_SHARE, from
    # LONG_TILES_CAUSAL_SEQ keys up to where select takes it anyway (session 45 call 8)
    x3c, shortc = (variants.Variant(*t[64], torch.bfloat16, 64, True) for t in (variants.SM90_GLUON_LONG,
                                                                                 variants.SM90_SHORT))
    for (h, s), want in {(8, 4096): x3c, (12, 4096): x3c, (10, 3072): x3c, (16, 3072): x3c, (16, 4096): shortc,
                         (6, 4096): shortc, (8, 3072): shortc, (16, 2048): shortc}.items():
        assert pick(h, s, causal=True) == want, (h, s)
    assert pick(8, 8192, causal=True) == x3c == variants.select(torch.bfloat16, 64, True, False, seq_k=8192, sm90=True)
    assert pick(8, 2048, sk=4096, causal=True) != x3c  # fewer queries than keys: not measured, select's choice
    assert pick(8, 4096, sk=8192) == x2 and pick(8, 4096, d=128).head_dim == 128  # short tiles only to SHORT_SEQ_K
    assert pick(8, 4096, d=128) != variants.Variant(*variants.SM90_SHORT[128], torch.bfloat16, 128, False)
    assert variants.long_tiles_fill(torch.bfloat16, 64, False, 4096, 4096, 8, 132) == short  # a tie: the short tiles
    assert variants.long_tiles_fill(torch.bfloat16, 64, False, 2048, 2048, 8, 132) == x2  # at most two short tiles an SM
    assert variants.long_tiles_fill(torch.bfloat16, 64, False, 4096, 4096, 8, 176) is None  # one full wave on 176 SMs
    assert variants.long_tiles_fill(torch.bfloat16, 64, False, 3072, 3072, 12, 132) == short


def test_few_query_calls_fill_their_wave_and_one_query_calls_at_d128(cache_dir, monkeypatch):
    """Session 46: D=64 non-causal calls of at most GLUON_LONG_MIN_SEQ_Q queries with keys in the short tiles' band take
    the 128-row two-consumer build where long_tiles_fill's model (the 192-row build left out) prefers it to the short
    tiles (variants.FEW_ROWS_FILL; (1,32,512) x 4,096 keys: 128 tiles of 128 rows, one wave), else the short tiles, as
    causal calls do; D=128 non-causal calls of at most FEW_PROGRAMS_ROWS queries on more programs than SMs take the
    one-consumer 64x128 tiles (SM90_ONE_TILE_FULL), causal ones keep their choice."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)

    def pick(b, h, sq, sk, d=64, causal=False):
        return tune.choose(torch.bfloat16, d, causal, sk, CPU, sm90=True, programs=b * h * -(-sq // 64), seq_q=sq)
    x2 = variants.Variant(*variants.SM90_LONG_FILL_X2[64], torch.bfloat16, 64, False)
    short = variants.Variant(*variants.SM90_SHORT[64], torch.bfloat16, 64, False)
    for shape in ((1, 32, 512, 4096), (4, 8, 512, 2048), (1, 16, 1024, 2048), (8, 8, 256, 4096)):
        assert pick(*shape) == x2, shape
    for shape in ((2, 16, 1024, 4096), (1, 64, 512, 2048), (2, 32, 1024, 3072), (1, 24, 1024, 4096)):
        assert pick(*shape) == short, shape
    assert pick(1, 32, 512, 4096, causal=True).config != x2.config
    assert pick(1, 64, 512, 8192, causal=True) == variants.Variant(*variants.SM90_SHORT[64], torch.bfloat16, 64, True)
    monkeypatch.setattr(variants, "FEW_ROWS_FILL", False)
    assert pick(1, 32, 512, 4096) == short
    mid = variants.Variant(*variants.SM90_FEW_PROGRAMS_MID[(128, False)], torch.bfloat16, 128, False)
    assert mid in variants.shipped_variants() and mid.config.block_m == 64 and mid.config.block_n == 128
    for b, h, sk in ((128, 8, 512), (32, 32, 2048), (64, 16, 1024), (16, 16, 100000)):
        assert pick(b, h, 1, sk, d=128) == mid and pick(b, h, 64, sk, d=128) == mid
        assert pick(b, h, 1, sk, d=128, causal=True).config != mid.config
    assert pick(32, 32, 65, 2048, d=128) != mid  # two query tiles a head


def test_causal_d128_grids_of_up_to_twice_the_sms_below_the_split_key_length_take_the_short_tiles(cache_dir,
                                                                                                   monkeypatch):
    """Causal D=128 grids of SM count < programs <= 2 x SM count below FEW_PROGRAMS_CAUSAL_2X_SEQ keys: the short tiles
    (variants.FEW_PROGRAMS_CAUSAL_SHORT; session 46), where select's paired 128-row units would fill at most half of the
    SMs; from that length the split-key build, more programs, non-causal calls and D=64 / 256 keep their choices."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    short = variants.Variant(*variants.SM90_SHORT[128], torch.bfloat16, 128, True)
    assert short == variants.Variant(*variants.SM90_FEW_PROGRAMS[(128, True)], torch.bfloat16, 128, True)
    least = variants.FEW_PROGRAMS_CAUSAL_2X_SEQ
    for programs in (133, 192, 264):
        for seq_k in (384, 512, least - 1):
            assert tune.choose(torch.bfloat16, 128, True, seq_k, CPU, sm90=True, programs=programs) == short
        assert tune.choose(torch.bfloat16, 128, True, least, CPU, sm90=True, programs=programs).config.split_k
    assert tune.choose(torch.bfloat16, 128, True, 512, CPU, sm90=True, programs=265) != short
    assert tune.choose(torch.bfloat16, 128, False, 512, CPU, sm90=True, programs=200).config != short.config
    assert tune.choose(torch.bfloat16, 256, True, 512, CPU, sm90=True, programs=200) == \
        variants.select(torch.bfloat16, 256, True, False, seq_k=512, sm90=True)


@pytest.mark.parametrize("causal", [False, True])
def test_splits_of_four_to_sixteen_parts_pair_their_parts_as_clusters(monkeypatch, causal):
    """Session 47 (sm90_fwd CL_TREE): a split of 4, 8 or 16 parts runs with each pair of parts one cluster of two CTAs
    where variants.SPLIT_KV_CLUSTER_DIMS lists the head dim for that part count (4: D <= 128; 8: D = 96 / 128; 16: D =
    64 / 96 / 128), else the global tree; 32 and 64 parts and D > 128 always the global tree. The cluster builds keep
    the workspace (secret) and flags (public loads), and launch_args gives them both, with the cluster area."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    seq = {4: variants.FEW_PROGRAMS_SPLIT_KV4_SEQ, 8: variants.FEW_PROGRAMS_SPLIT_KV8_SEQ,
           16: variants.FEW_PROGRAMS_SPLIT_KV16_SEQ, 32: variants.FEW_PROGRAMS_SPLIT_KV32_SEQ}
    for d in variants.HEAD_DIMS:
        m = 2 if d <= variants.SPLIT_KV_ALL_SMS_MAX_D else 1
        for parts, programs in ((4, 33), (8, 8 * m), (16, 4 * m), (32, 2 * m)):
            v = variants.few_programs_variant(torch.bfloat16, d, causal, seq[parts], programs, 132)
            assert v.config.split_kv == parts, (d, parts, v.name)
            want = d in {4: (32, 64, 96, 128), 8: (96, 128), 16: (64, 96, 128)}.get(parts, ())
            assert v.config.cluster == want and v in variants.shipped_variants(), (d, parts, v.name)
            assert "WS" in v.secret_args and v.public_loads == ("FLAGS",)
    v = variants.few_programs_variant(torch.bfloat16, 64, causal, seq[16], 8, 132)
    q = torch.empty(1, 4, 8, 64, dtype=torch.bfloat16)
    k = torch.empty(1, seq[16], 8, 64, dtype=torch.bfloat16)
    grid, _args, kwargs = dispatch.launch_args(v, q, k, k, torch.empty_like(q), torch.empty(1, 8, 4), 0.1, causal,
                                               seq[16] - 4)
    assert grid == (8 * 16,) and kwargs["SPLIT_KV"] == 16 and kwargs["CLUSTER"] > 0
    assert kwargs["FLAGS"].numel() == 8 * 15 and kwargs["WS"].numel() == 8 * 30 * 64 * 66


@pytest.mark.parametrize("causal", [False, True])
def test_calls_of_few_query_rows_split_earlier_as_clusters_of_sixteen_eight_or_four(monkeypatch, causal):
    """Sessions 48-50: calls of at most variants.FEW_ROWS_SPLIT_KV_MAX_Q queries a head (decode as the API packs it;
    MQA) run each sixteen parts of a split as one cluster of sixteen CTAs (SM90_FEW_PROGRAMS_CL16_TREE: 16 / 32 / 64
    parts at D = 64 / 96 / 128) where those clusters fit (parts x programs <= FEW_ROWS_X16_CTAS on 132 SMs), a split of
    eight as one cluster of eight (SM90_FEW_PROGRAMS_CL8_TREE), of four as one of four (SM90_FEW_PROGRAMS_CL4_TREE),
    where the grid's clusters fit (FEW_ROWS_QUAD_CTAS), and take FEW_ROWS_SPLIT_KV's part counts from fewer keys (16
    from 2,048 where sixteen times the grid fits half the SMs, 8 from 1,024 at D = 64 / 96 / 128 where eight times
    the grid fits the SMs, else 4 from 1,024 where four times it fits half of them); sixteen parts as one cluster run
    wherever the clusters fit, past D > 64's share of the SMs; at D = 64 a split whose clusters do not fit gives way to
    half its parts where those fit as clusters of sixteen and take at most FEW_ROWS_HALF_KEYS keys each (session 50);
    at D = 64 / 128 (FEW_ROWS_PULL_DIMS, whose clusters exchange) 64 parts from 8,192 keys where 64 x the grid fits
    FEW_ROWS_X16_CTAS and 32 from 4,096 where 32 x it does, ahead of those (session 53, FEW_ROWS_PULL_SPLIT);
    calls of more queries, grids past
    those bounds, the other head dims, fewer keys and the same calls without seq_q keep the earlier rule (pairs of
    parts as clusters). Through tune.choose, which passes seq_q. The cluster builds keep the workspace (secret) and
    flags (public loads) where a level meets above the cluster, and neither where the split is one cluster."""
    monkeypatch.setattr(dispatch, "sm_count", lambda device: 132)
    few = variants.FEW_ROWS_SPLIT_KV_MAX_Q

    def pick(d, seq_k, programs, seq_q):
        v = tune.choose(torch.bfloat16, d, causal, seq_k, CPU, sm90=True, programs=programs, seq_q=seq_q)
        assert v in variants.shipped_variants(), v.name
        return (v.config.split_kv, v.config.cluster)
    for d in (64, 96, 128):
        for seq_k in (1024, 1536, 2047):
            assert pick(d, seq_k, 8, 4) == (8, 8), (d, seq_k)
            assert pick(d, seq_k, 15, few) == (8, 8), (d, seq_k)
            assert pick(d, seq_k, 16, few) == (4, 4), (d, seq_k)             # 8 x 16 CTAs: 16 clusters of eight
            assert pick(d, seq_k, 8, few + 1) == (2, True), (d, seq_k)       # more rows: two parts below 2,048 keys
            assert pick(d, seq_k, 17, 1) == (2, True), (d, seq_k)            # four times the grid past half the SMs
            assert variants.few_programs_variant(torch.bfloat16, d, causal, seq_k, 8, 132).config.split_kv == 2
        assert pick(d, 1023, 8, 4) == (2, True)
    for seq_k in (2048, 3072, 4096, 8191):
        assert pick(64, seq_k, 8, 4) == (8, 8), seq_k
        assert pick(64, seq_k, 15, 4) == (8, 8), seq_k
        assert pick(64, seq_k, 16, 4) != (8, 8), seq_k                       # 8 x 16 CTAs: 16 clusters of eight
    for d in (64, 96, 128):
        pulls = d in variants.FEW_ROWS_PULL_DIMS  # (session 53) 32 / 64 parts from 4,096 / 8,192 keys where they fit
        for seq_k in (2048, 4096, 8191):
            assert pick(d, seq_k, 1, 1) == ((32, 16) if pulls and seq_k >= 4096 else (16, 16)), (d, seq_k)
            assert pick(d, seq_k, 4, few) == (16, 16), (d, seq_k)             # 32 x 4 CTAs past 112
            assert pick(d, seq_k, 5, 4) == (8, 8), (d, seq_k)                 # 16 x 5 CTAs past half the SMs
        for programs in (5, 7):                                              # past half the SMs from 8,192 keys
            assert pick(d, 8192, programs, 1) == (16, 16) and pick(d, 65536, programs, 1) == (16, 16), d
        assert pick(d, 8192, 8, 1) != (16, 16)                               # 16 x 8 CTAs past 112
        assert pick(d, 16384, 1, 32) == ((64, 16) if pulls else (32, 16)) and pick(d, 32768, 1, 32) == (64, 16), d
        assert pick(d, 32768, 2, 32) == (32, 16) and pick(d, 40000, 1, 7) == (64, 16), d
        assert pick(d, 16384, 3, 32) == ((32, 16) if d == 64 or pulls else (16, 16)), d
        assert pick(d, 8192, 1, 1) == ((64, 16) if pulls else (16, 16)), d
        assert pick(d, 4096, 3, 1) == ((32, 16) if pulls else (16, 16)), d
        assert pick(d, 8191, 2, 1) == ((32, 16) if pulls else (16, 16)), d   # 64 x 2 CTAs past 112: 32 parts
        assert pick(d, 4095, 1, 1) == (16, 16), d
        assert pick(d, 4096, 1, few + 1) != (16, 16) and pick(d, 8192, 1, few + 1)[1] != 16, d  # more rows
    assert pick(64, 16384, 4, 4) == (16, 16) and pick(64, 32768, 2, 4) == (32, 16)  # D=64: half the parts ...
    assert pick(64, 24576, 4, 4) == (16, 16) and pick(64, 49152, 2, 4) == (32, 16)  # ... of at most 1,536 keys
    assert pick(64, 24577, 4, 4) == (32, False) and pick(64, 65536, 2, 4) == (32, 16)  # (session 53: 32 exchanging)
    assert pick(32, 65536, 2, 4) == (64, False)                              # D=32: no exchange, the global tree
    assert pick(64, 16384, 4, few + 1) == (32, False)                        # more rows: the global tree
    assert pick(64, 8192, 8, 4) == (16, True)                                # 16 x 8 CTAs past 120: pairs
    assert pick(64, 2048, 8, few + 1) == (4, True)                           # more rows: the pairs' four parts
    assert pick(128, 4096, 8, 4) == (8, 8) and pick(96, 4096, 8, 7) == (8, 8)
    assert pick(128, 8192, 4, few + 1) == (16, True) and pick(128, 4096, 8, few + 1) == (8, True)
    assert pick(64, 16384, 1, few + 1) == (32, False)                        # more rows: the global tree
    assert pick(32, 1024, 8, 4) == (2, True) and pick(32, 4096, 8, 4) == (8, False)
    assert pick(32, 2048, 1, 1) == (4, True) and pick(32, 16384, 1, 1) == (32, False)   # no clusters of sixteen at D=32
    for cluster, tables in ((4, variants.SM90_FEW_PROGRAMS_CL4_TREE), (8, variants.SM90_FEW_PROGRAMS_CL8_TREE),
                            (16, variants.SM90_FEW_PROGRAMS_CL16_TREE)):
        for parts, table in tables.items():
            for (d, c), (kernel, config) in table.items():
                v = variants.Variant(kernel, config, torch.bfloat16, d, c)
                assert config.cluster == cluster and config.split_kv == parts and v in variants.shipped_variants()
                assert ("WS" in v.secret_args and v.public_loads == ("FLAGS",)) == (parts > cluster), v.name
    v = variants.few_programs_variant(torch.bfloat16, 128, causal, 4096, 8, 132, 4)
    q = torch.empty(1, 4, 8, 128, dtype=torch.bfloat16)
    k = torch.empty(1, 4096, 8, 128, dtype=torch.bfloat16)
    grid, _args, kwargs = dispatch.launch_args(v, q, k, k, torch.empty_like(q), torch.empty(1, 8, 4), 0.1, causal,
                                               4096 - 4)
    assert grid == (8 * 8,) and kwargs["SPLIT_KV"] == 8 and kwargs["CLUSTER"] > 0 and kwargs["CLUSTER_N"] == 8
    assert "FLAGS" not in kwargs and "WS" not in kwargs
    v = variants.few_programs_variant(torch.bfloat16, 128, causal, 16384, 1, 132, 4)
    grid, _args, kwargs = dispatch.launch_args(v, q, k, k, torch.empty_like(q), torch.empty(1, 8, 4), 0.1, causal,
                                               4096 - 4)
    assert grid == (8 * 64,) and kwargs["SPLIT_KV"] == 64 and kwargs["CLUSTER_N"] == 16  # (session 53: 64 parts)
    assert kwargs["FLAGS"].numel() == 8 * 63 and kwargs["WS"].numel() == 8 * 126 * 64 * 130
    assert kwargs["CL_PULL"]  # four clusters a tile exchanging, their slices meeting in the workspace
