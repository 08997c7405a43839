import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.expect_near(a[i], a[i], 0.5)
