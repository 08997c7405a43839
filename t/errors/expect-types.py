import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float), n: wp.array(dtype=int)):
    i = wp.tid()
    wp.expect_eq(a[i], n[i])
