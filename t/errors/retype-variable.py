import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    x = 1.0
    x = 2
    a[0] = x
