import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    Q, d = wp.eig3(a[i])
