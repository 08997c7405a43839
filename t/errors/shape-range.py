import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float), b: wp.array(dtype=int)):
    i = wp.tid()
    b[i] = a.shape[2]
