# The value an atomic returns depends on the order of the threads.
import warp as wp


@wp.kernel
def claim(count: wp.array(dtype=int), xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    slot = wp.atomic_add(count, 0, 1)
    out[i] = xs[i] * float(slot)
