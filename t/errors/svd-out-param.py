import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.mat33), b: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    sigma = wp.vec3()
    V = wp.mat33()
    wp.svd3(a[i], b[i], sigma, V)
