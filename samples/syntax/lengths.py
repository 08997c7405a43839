# A 1-D array's length read in a kernel and in the functions it calls: len(a), a.shape[0].
import warp as wp


@wp.func
def wrap(a: wp.array(dtype=float), i: int):
    n = len(a)
    return a[(i % n + n) % n]


@wp.func
def mean(a: wp.array(dtype=float)):
    s = float(0.0)
    for k in range(a.shape[0]):
        s += a[k]
    return s / float(a.shape[0])


@wp.kernel
def smooth_ring(u: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = 0.25 * wrap(u, i - 1) + 0.5 * u[i] + 0.25 * wrap(u, i + 1)


@wp.kernel
def center(u: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = u[i] - mean(u)
