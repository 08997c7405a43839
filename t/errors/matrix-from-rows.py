import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    a[i] = wp.mat33(wp.vec3(1.0), wp.vec3(2.0), wp.vec3(3.0))
