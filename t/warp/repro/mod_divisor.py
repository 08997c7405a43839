# A float % whose divisor depends on the inputs: out = a % d with
# d = 1.5 + b * b, so d out / d b = -trunc(a / d) * 2b.  On the input law's
# values (|a| <= 1 < d) trunc(a / d) is 0, so the kernel scales a first:
# out = (4 a) % d, where trunc(4a / d) is -2 .. 2.  Warp 1.19's adjoint of
# a float % passes the adjoint to the dividend only: the divisor's part of
# b.grad is 0 wherever the exact one is not (with krun's seeds, Warp's
# b.grad[10] is 0.4993, b's own seed, where the derivative is -0.0074).
import warp as wp


@wp.kernel
def mod_divisor(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    d = 1.5 + b[i] * b[i]
    out[i] = (4.0 * a[i]) % d
