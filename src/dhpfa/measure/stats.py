"""Welch's t-test, the one statistic of the timing-leak test (dudect's threshold: |t| > 4.5 = leak)."""
import math

THRESHOLD = 4.5


def mean_var(xs):
    n = len(xs)
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, v


def welch_t(a, b) -> float:
    """t statistic of mean(a) - mean(b) with unequal variances; 0 when both samples are constant."""
    if len(a) < 2 or len(b) < 2:
        raise ValueError("welch_t needs at least two samples per class")
    ma, va = mean_var(a)
    mb, vb = mean_var(b)
    se = math.sqrt(va / len(a) + vb / len(b))
    if se == 0.0:
        return 0.0 if ma == mb else math.copysign(math.inf, ma - mb)
    return (ma - mb) / se


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def is_leak(t: float) -> bool:
    return abs(t) > THRESHOLD
