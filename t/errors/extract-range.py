import warp as wp


@wp.kernel
def k(a: wp.array[wp.vec3]):
    i = wp.tid()
    a[i] = wp.vec3(wp.extract(a[i], 3))
