# An array updated by an atomic and also loaded by the kernel.
import warp as wp


@wp.kernel
def accumulate(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(a, 0, 1.0)
    out[i] = a[0]
