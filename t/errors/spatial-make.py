import warp as wp


@wp.kernel
def k(s: wp.array[wp.spatial_vector], p: wp.array[wp.vec3]):
    i = wp.tid()
    s[i] = wp.spatial_vector(p[i], 1.0)
