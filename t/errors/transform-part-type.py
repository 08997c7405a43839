import warp as wp

@wp.kernel
def k(t: wp.array(dtype=wp.transform)):
    i = wp.tid()
    a = t[i]
    a.q = wp.vec3(1.0, 0.0, 0.0)
    t[i] = a
