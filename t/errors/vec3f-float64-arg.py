import warp as wp

@wp.kernel
def k(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.vec3f)):
    i = wp.tid()
    out[i] = wp.vec3f(x[i], 2.0, 3.0)
