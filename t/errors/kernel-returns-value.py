import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    return 1.0
