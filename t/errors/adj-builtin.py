import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.mat33), b: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    a[i] = wp.adj_eig3(a[i], a[i], b[i], a[i], b[i])
