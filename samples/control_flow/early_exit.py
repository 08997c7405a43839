# Early return: threads skip the rest of the kernel when a guard condition holds.
import warp as wp


@wp.kernel
def sqrt_positive(x: wp.array(dtype=float), out: wp.array(dtype=float), flag: wp.array(dtype=int)):
    i = wp.tid()
    flag[i] = 0
    if x[i] <= 0.05:
        out[i] = 0.0
        return
    flag[i] = 1
    out[i] = wp.sqrt(x[i])


@wp.kernel
def first_half(n: int, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    if i >= n // 2:
        return
    j = n - 1 - i
    a = x[i]
    b = x[j]
    y[i] = 0.5 * (a + b)
    y[j] = 0.5 * (a - b)
