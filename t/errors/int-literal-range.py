import warp as wp

@wp.kernel
def k(a: wp.array(dtype=int)):
    a[0] = 3000000000
