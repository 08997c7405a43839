import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.vec3), s: wp.array(dtype=wp.float64)):
    t = wp.tile_zeros(shape=8, dtype=wp.vec3)
    u = wp.tile_load(a, shape=8)
    wp.tile_axpy(s[0], u, t)
    wp.tile_store(a, t)
