import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    wp.expect_eq(a, a)
