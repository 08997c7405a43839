import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = wp.tile_zeros(shape=8, dtype=float)
    u = wp.tile_load(a, shape=4)
    wp.tile_axpy(2.0, u, t)
    wp.tile_store(a, t)
