# An array updated by an atomic and also stored by the kernel.
import warp as wp


@wp.kernel
def reset_and_add(xs: wp.array(dtype=float), a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 0.0
    a[0] += xs[i]
