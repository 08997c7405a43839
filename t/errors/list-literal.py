import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    xs = [1.0, 2.0]
    a[0] = xs[0]
