import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = 1.0

@wp.kernel
def j(a: wp.array(dtype=float)):
    k(a)
