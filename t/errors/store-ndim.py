import warp as wp


@wp.kernel
def k(a: wp.array3d(dtype=float)):
    i, j = wp.tid()
    a[i, j] = 1.0
