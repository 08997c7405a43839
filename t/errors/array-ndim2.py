import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float, ndim=2)):
    a[0] = 1.0
