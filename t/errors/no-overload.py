import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = wp.min(1.0, 2)
