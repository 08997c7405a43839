import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.vec3i)):
    i = wp.tid()
    a[i].x &= 1
