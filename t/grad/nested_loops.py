# Nested dynamic loops; the inner trip count depends on the outer variable.
import warp as wp


@wp.kernel
def nested_loops(n: int, xs: wp.array(dtype=float), ys: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    acc = float(1.0)
    for j in range(n % 4 + 1):
        y = ys[(i + j) % n]
        for k in range(j + 1):
            acc = 0.5 * acc * x + wp.cos(acc * y)
        acc = acc + y * x
    out[i] = acc
