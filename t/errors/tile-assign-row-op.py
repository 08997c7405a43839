import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_zeros(shape=(4, 4), dtype=float)
    t[1] += wp.tile_ones(shape=4, dtype=float)
    wp.tile_store(a, t)
