import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float, ndim=5)):
    a[0] = 1.0
