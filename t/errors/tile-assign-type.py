import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = wp.tile_zeros(shape=8, dtype=float)
    t[2] = 3
    wp.tile_store(a, t)
