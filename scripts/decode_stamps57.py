"""Session 57: where the merged decode kernel's tail goes. Call 3 (decode_two_pairs57.py) read (1,16,2,1,65536,128) at
25.59 us merged (32 parts) against 20.05 for the swap kernel alone (no merge, no combine), 5.3-6.0 us at 32K-128K keys,
while 4 more rounds of the merge (CHUNK 4 against 8, call 1) cost about 0.5 us. attn_decode_sm90_merged with STAMP:
thread 0 of each program writes (%clock64, %globaltimer) at its start (0), past its part's store (1), past the arrival
(2), past its merge (3, merging programs) and at its end (4), and inside the arrival the clock past the release
store (5), the SC fence (6) and the words' compare (7) (since call 11; in session 58's wide arrival thread 0's own
word's). Eager launches after warm-up; medians over launches.
(Call 6's --probe 1 / 2, timing probes of an incorrect arrival, were removed after it: commit 7913017 has them.)

    PYTHONPATH=src:scripts python3 scripts/decode_stamps57.py [--launches 30] [--out DIR] [--serial | --split]
"""
import argparse
import json
import os
import statistics

import torch

from dhpfa.kernels import sm90_decode, variants

CASES = [(1, 16, 2, 65536, 128, 32), (1, 16, 2, 32768, 128, 32), (1, 32, 8, 16384, 128, 16),
         (1, 16, 2, 65536, 64, 64), (1, 32, 4, 16384, 64, 32)]


def one_case(b, h, hk, sk, d, parts, launches, gen, build=None, split=False):
    q = torch.randn(b, 1, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k, v = (torch.randn(b, sk, hk, d, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
    n, _ = sm90_decode.decode_parts(sk, parts, 128)
    ws_o, ws_l = torch.empty(n, b, h, d, device="cuda"), torch.empty(n, h, b, device="cuda")
    out, lse_t = torch.empty_like(q), torch.empty(h, b, device="cuda")
    flags = torch.zeros(b * hk * n, dtype=torch.int64, device="cuda")
    progs = n * b * hk
    stamps = torch.zeros(progs * 16, dtype=torch.int64, device="cuda")
    sp = variants.swap_decode_split(d, n) if split else 0
    grid, args, kw = sm90_decode.launch_args(q, k, v, ws_o, ws_l, d ** -0.5, parts, merge=(out, lse_t, flags),
                                             build=build.get(d) if build else None, split=sp)
    fn = sm90_decode.attn_decode_sm90_split if sp else sm90_decode.attn_decode_sm90_merged
    rows = []
    for i in range(launches + 5):
        stamps.zero_()
        flags.zero_()  # (each launch here reuses one nonce; session 57's arrival probes could leave words set)
        fn[grid](*args, **kw, STAMP=True, STAMPS=stamps)
        torch.cuda.synchronize()
        if i < 5:
            continue
        s = stamps.view(progs, 8, 2).cpu()
        c, g = s[:, :, 0], s[:, :, 1]
        t0 = int(g[:, 0].min())
        merging = [p for p in range(progs) if int(g[p, 3]) != 0]
        last1 = int(g[:, 1].max()) - t0
        row = {"span_ns": int(g[:, 4].max()) - t0, "last_store_ns": last1,
               "first_start_to_last_start_ns": int(g[:, 0].max()) - t0,
               "main_cycles": statistics.median(int(c[p, 1] - c[p, 0]) for p in range(progs)),
               "main_cycles_max": max(int(c[p, 1] - c[p, 0]) for p in range(progs)),
               "arrive_cycles": statistics.median(int(c[p, 2] - c[p, 1]) for p in range(progs)),
               "mergers": len(merging),
               "m_arrive_cycles": max(int(c[p, 2] - c[p, 1]) for p in merging),
               "m_merge_cycles": max(int(c[p, 3] - c[p, 2]) for p in merging),
               "m_clear_cycles": max(int(c[p, 4] - c[p, 3]) for p in merging),
               "m_store_after_last_ns": max(int(g[p, 1]) - t0 for p in merging) - last1,
               "m_end_ns": max(int(g[p, 4]) - t0 for p in merging),
               "cyc_per_ns": statistics.median((int(c[p, 4] - c[p, 0]) / max(1, int(g[p, 4] - g[p, 0])))
                                               for p in range(progs))}
        if not sp:  # inside the arrival (stamps 5-7, thread 0's clock; the split build has none): the release
            # store, the SC fence, the words' loads and compare, the acquire and barrier; medians over programs
            row.update({"a_release": statistics.median(int(c[p, 5] - c[p, 1]) for p in range(progs)),
                        "a_sc_fence": statistics.median(int(c[p, 6] - c[p, 5]) for p in range(progs)),
                        "a_loads": statistics.median(int(c[p, 7] - c[p, 6]) for p in range(progs)),
                        "a_acquire": statistics.median(int(c[p, 2] - c[p, 7]) for p in range(progs))})
        rows.append(row)
    med = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
    print((b, h, hk, 1, sk, d), f"parts {n}", f"split {sp}" if sp else "one merger" if not build else
          "serial" if len(build[d]) > 4 else "async",
          "  ".join(f"{k_} {v_:.0f}" if v_ > 10 else f"{k_} {v_:.2f}"
                                                      for k_, v_ in med.items()), flush=True)
    return med


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=30)
    ap.add_argument("--out", default=os.environ.get("OUT", "out"))
    ap.add_argument("--async-merge", action="store_true",
                    help="the merge from shared memory (decode_async57.py's a8 / a16); the shipped build since "
                    "session 57's call 7, so now the same as without it (calls 4-6 read the register forms without)")
    ap.add_argument("--serial", action="store_true",
                    help="session 57's arrival (thread 0 reads every done-word), against session 58's shipped one "
                    "(a word a thread: variants.SWAP_DECODE_MERGE_WIDE)")
    ap.add_argument("--split", action="store_true",
                    help="attn_decode_sm90_split where variants.swap_decode_split gives slices (session 58; stamps 2: "
                    "past the release, or the poll in the slices' programs; 3: past the slice's merge; no 5-7)")
    a = ap.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(57)
    build = {128: (32, 8, False, True), 64: (64, 16, False, True)} if a.async_merge else None
    if a.serial:
        build = {128: (32, 8, False, True, False), 64: (64, 16, False, True, False)}
    res = {str(c): one_case(*c, a.launches, gen, build, a.split) for c in CASES}
    os.makedirs(a.out, exist_ok=True)
    tag = "_split" if a.split else "_serial" if a.serial else "_async" if build else ""
    with open(os.path.join(a.out, f"decode_stamps57{tag}.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
