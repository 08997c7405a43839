import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33), n: int):
    i = wp.tid()
    a[i] = wp.identity(n, dtype=float)
