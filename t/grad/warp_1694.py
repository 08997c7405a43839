# NVIDIA/warp#1694: the adjoint of a variable defined before a dynamic loop
# and used after it was silently zero.
import warp as wp


@wp.kernel
def warp_1694(x: wp.array(dtype=float), s: wp.array(dtype=float), n: int, out: wp.array(dtype=float)):
    i = wp.tid()
    b = x[i] * 2.0
    acc = float(5.0)
    for k in range(n % 4 + 1):
        acc += s[i]
    out[i] = acc * b
