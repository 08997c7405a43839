import warp as wp


@wp.kernel
def k(q: wp.array[wp.quat], p: wp.array[wp.vec3]):
    i = wp.tid()
    q[i] = wp.quat(p[i], p[i])
