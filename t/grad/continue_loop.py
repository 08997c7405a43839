# continue in a dynamic loop: skipped iterations contribute nothing.
import warp as wp


@wp.kernel
def continue_loop(n: int, xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    total = float(0.0)
    for k in range(n):
        v = xs[k] * xs[i]
        if v < 0.0:
            continue
        total = total * 0.9 + wp.sqrt(v + 0.1)
    out[i] = total
