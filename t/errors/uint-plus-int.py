import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    a[i] = a[i] + 1
