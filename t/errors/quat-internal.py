import warp as wp


@wp.kernel
def k(q: wp.array[wp.quat], p: wp.array[wp.vec3]):
    i = wp.tid()
    p[i] = wp.adj_quat_rotate_q(q[i], p[i], p[i])
