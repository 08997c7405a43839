import warp as wp


@wp.kernel
def k(a: wp.array[float]):
    i = wp.tid()
    a[i] = wp.where(a[i] > 0.0, 1, a[i])
