import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.expect_eq(a[i], 1.0)
