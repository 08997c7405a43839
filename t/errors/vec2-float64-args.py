import warp as wp

@wp.kernel
def k(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    out[i] = wp.vec2(x[i], x[i])
