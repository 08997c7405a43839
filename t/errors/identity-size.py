import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    a[i] = wp.identity(n=5, dtype=float)
