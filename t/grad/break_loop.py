# break out of a dynamic loop once the state passes a data-dependent threshold.
import warp as wp


@wp.kernel
def break_loop(n: int, xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    s = x
    for k in range(n):
        s = s * 1.3 + x * x
        if s > 2.0:
            break
        s = wp.tanh(s) + 0.1
    out[i] = s * x
