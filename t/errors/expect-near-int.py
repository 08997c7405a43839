import warp as wp

@wp.kernel
def k(n: wp.array(dtype=int)):
    i = wp.tid()
    wp.expect_near(n[i], 2)
