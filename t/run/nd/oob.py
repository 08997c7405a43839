# Accesses out of bounds, for t/t4012-nd.t: krun's checked cpu code
# reports each as a located error at the access.
import warp as wp


@wp.kernel
def shift(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i + 1]


@wp.kernel
def back(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(y, i - 1, x[i])


@wp.kernel
def grid(a: wp.array2d(dtype=float), k: int):
    i, j = wp.tid()
    a[i, j + k] = 1.0
