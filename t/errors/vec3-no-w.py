import warp as wp

@wp.kernel
def k(a: wp.array(dtype=float)):
    v = wp.vec3(1.0, 2.0, 3.0)
    a[0] = v.w
