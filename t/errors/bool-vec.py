import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    if bool(wp.vec3()):
        a[i] = 0.0
