"""sanitize_clusters.py's API cases (B, H, H_kv, S_q, S_k, D, causal), importable without running them."""
CASES = (  # (B, H, H_kv, S_q, S_k, D, causal), through the API
    # session 47: the splits of 4 / 8 / 16 parts whose pairs are clusters (sm90_fwd CL_TREE): packed decode (16 parts at
    # D=64, 8 at D=128), MQA decode (16 parts at D=128), 4 parts (few-tile prefill, causal), odd key counts
    (1, 32, 8, 1, 8192 + 37, 64, False), (1, 32, 8, 1, 4096 + 11, 128, False), (4, 32, 1, 1, 8192 + 3, 128, False),
    (1, 4, 4, 500, 2048 + 100, 64, False), (1, 1, 1, 2100, 2100, 128, True), (1, 1, 1, 2100, 2100, 64, True),
    # session 48: tiles of few rows (the meeting copies only the rows below S_q; pairs split evenly): decode of 4 rows on
    # 4 / 16 parts, MQA's 32 rows, a second tile of 36 rows (two parts), 33 rows (not even), odd key counts
    (1, 32, 8, 1, 1024 + 5, 64, False), (1, 32, 8, 1, 1500, 128, False), (1, 32, 8, 1, 3072 + 9, 64, False),
    (4, 32, 1, 1, 1024 + 7, 128, False), (1, 4, 4, 100, 1100, 64, True), (1, 2, 2, 33, 2100, 128, False),
    # session 50: clusters of sixteen (MQA of one sequence: 16 / 32 / 64 parts; seven tiles of 16 parts), odd key counts
    (1, 32, 1, 1, 2048 + 5, 64, False), (1, 32, 1, 1, 16384 + 3, 128, True), (1, 32, 1, 1, 32768 + 1, 64, False),
    (1, 28, 7, 1, 8192 + 9, 128, False),
    # session 51: one cluster of 4 / 8 / 16 parts a tile meeting in one exchange (sm90_fwd CL_PULL): MQA of one and four
    # sequences (sixteen parts), grouped heads (eight parts; sixteen), D=64, odd key counts
    (1, 32, 1, 1, 2048 + 5, 128, False), (4, 32, 1, 1, 2048 + 7, 128, True), (1, 32, 8, 1, 8192 + 9, 128, False),
    (1, 32, 4, 1, 4096 + 1, 128, False), (1, 32, 1, 1, 4096 + 3, 64, False), (4, 32, 1, 1, 1024 + 7, 128, False),
    # session 53: two / four clusters of sixteen a tile exchanging, their slices meeting in the workspace (32 / 64
    # parts; session 50's 16,387 / 32,769-key cases above run 64 parts now): two and three tiles, four queries, 64K keys
    (2, 32, 1, 1, 4096 + 5, 128, False), (3, 32, 1, 1, 9000, 64, True), (1, 32, 1, 4, 8192 + 3, 128, False),
    (1, 32, 1, 1, 65536 + 1, 128, False))
