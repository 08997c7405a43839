# In-place *= and /= on locals, in straight-line code and in a loop.
import warp as wp


@wp.kernel
def inplace_ops(n: int, xs: wp.array(dtype=float), ys: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    a = xs[i]
    b = ys[i] * ys[i] + 1.0
    a *= b
    a /= b + a * a
    for k in range(n % 3 + 1):
        a *= 1.1 + wp.cos(a)
        a /= b
    out[i] = a
