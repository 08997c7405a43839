import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.uint8)):
    a[0] = wp.uint8(300)
