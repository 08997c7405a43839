import warp as wp


@wp.kernel
def k(a: wp.array[float]):
    i = wp.tid()
    b = wp.cast(a[i], wp.int64)
