import warp as wp

@wp.kernel
def k(x: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.vec3h)):
    i = wp.tid()
    out[i] = wp.vec3h(1.0, x[i], 3.0)
