import warp as wp


@wp.kernel
def k(a: wp.array[float]):
    i = wp.tid()
    a[i] = wp.select(a[i] > 0.0, 0.0, a[i])
