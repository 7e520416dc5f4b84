"""GPU-side evidence: speed beside peers, timing-leak tests, hardware counters, determinism."""
