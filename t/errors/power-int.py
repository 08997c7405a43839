import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = float(2 ** 3)
