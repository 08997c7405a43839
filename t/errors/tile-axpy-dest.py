import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = wp.tile_zeros(shape=8, dtype=float)
    wp.tile_axpy(2.0, t, wp.tile_load(a, shape=8))
    wp.tile_store(a, t)
