import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    i, j, k, l, m = wp.tid()
