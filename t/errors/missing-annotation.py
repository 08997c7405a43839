import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float), n):
    a[0] = 1.0
