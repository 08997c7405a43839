# A wp.func that stores to an array cannot be differentiated.
import warp as wp


@wp.func
def put(a: wp.array(dtype=float), i: int, v: float) -> float:
    a[i] = v
    return v


@wp.kernel
def use_put(a: wp.array(dtype=float), xs: wp.array(dtype=float)):
    i = wp.tid()
    put(a, i, xs[i] * 2.0)
