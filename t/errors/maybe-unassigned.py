import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    if a[0] > 0.0:
        y = 1.0
    a[0] = y
