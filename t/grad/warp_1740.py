# NVIDIA/warp#1740: a wp.func sums in a dynamic loop and applies a
# nonlinear operation to the sum before returning it.
import warp as wp


@wp.func
def sum_then_divide(x: wp.array(dtype=float), n: int) -> float:
    total = float(1.0)
    for k in range(n):
        total += x[k] * x[k]
    return 1.0 / total


@wp.func
def sum_then_square(x: wp.array(dtype=float), n: int) -> float:
    total = float(0.5)
    for k in range(n):
        total += x[k]
    return total * total


@wp.kernel
def warp_1740(n: int, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = sum_then_divide(x, i % 4 + 1) + sum_then_square(x, n % 5)
