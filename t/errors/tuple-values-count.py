import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x, y = a[i], 1.0, 2.0
    a[i] = x + y
