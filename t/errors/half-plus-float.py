import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.float16)):
    i = wp.tid()
    a[i] = a[i] * 2.0
