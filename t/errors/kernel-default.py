import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), s: float = 1.0):
    a[0] = s
