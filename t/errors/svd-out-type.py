import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    U = wp.mat33()
    sigma = wp.vec2()
    V = wp.mat33()
    wp.svd3(a[i], U, sigma, V)
