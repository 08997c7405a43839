# while loop whose trip count depends on the data (bisection-like iteration).
import warp as wp


@wp.kernel
def while_loop(xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i] * xs[i] + 1.0
    g = x
    k = int(0)
    while wp.abs(g * g - x) > 0.001 and k < 8:
        g = 0.5 * (g + x / g)
        k += 1
    out[i] = g * wp.exp(-x)
