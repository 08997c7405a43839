import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    a[i] = wp.lerp(a[i], 2, 1)
