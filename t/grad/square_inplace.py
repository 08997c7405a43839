# An array read and then overwritten in place: a[i] = a[i] * a[i].
import warp as wp


@wp.kernel
def square_inplace(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * a[i]
    b[i] = a[i] + b[i] * a[i]
