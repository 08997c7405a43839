# A value defined before a dynamic loop and used after it.
import warp as wp


@wp.kernel
def pre_loop_value(n: int, xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    b = x * x + 1.0
    acc = float(0.5)
    for k in range(n % 5 + 1):
        acc = acc + x * float(k)
    out[i] = acc * b + wp.sin(b)
