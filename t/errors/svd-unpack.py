import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    U, sigma = wp.svd3(a[i])
