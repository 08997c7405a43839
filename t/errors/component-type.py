import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    a[i].x = wp.vec2(1.0, 2.0)
