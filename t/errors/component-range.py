import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    a[i][3] = 1.0
