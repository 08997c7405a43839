# A wp.func that contains a dynamic loop, called from a kernel.
import warp as wp


@wp.func
def horner(x: float, n: int) -> float:
    p = float(1.0)
    for k in range(n):
        p = p * x + float(k) * 0.25
    return p * p


@wp.kernel
def func_loop(n: int, xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = horner(xs[i], n % 6 + 1) + horner(0.5 * xs[i], 2)
