import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = wp.tile_zeros(shape=8, dtype=int)
    t[2] |= 4
    wp.tile_store(a, t)
