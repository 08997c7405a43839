import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] << 1
