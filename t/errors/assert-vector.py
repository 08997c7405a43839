import warp as wp

@wp.kernel
def k(a: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    assert a[i], "a vector is no condition"
