# Loops bounded by data: per-thread trip counts read from an int array and a nested triangular loop.
import warp as wp


@wp.kernel
def power_series(counts: wp.array(dtype=int), x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    m = counts[i] % 6
    term = float(1.0)
    total = float(0.0)
    for k in range(m):
        term = term * x[i] / float(k + 1)
        total += term
    out[i] = total


@wp.kernel
def triangular_pairs(n: int, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    rows = i % 4 + 1
    acc = float(0.0)
    for r in range(rows):
        for c in range(r, rows):
            acc += x[(i + r * c) % n] * 0.25
    out[i] = acc
