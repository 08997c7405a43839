import warp as wp


@wp.kernel
def k(a: wp.array[float]):
    i = wp.tid()
    a[i] = print(a[i])
