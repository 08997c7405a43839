import warp as wp

@wp.kernel
def k(out: wp.array(dtype=wp.transformd)):
    i = wp.tid()
    out[i] = wp.transformd(wp.transform(wp.vec3(1.0, 2.0, 3.0), wp.quat_identity()))
