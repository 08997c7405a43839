import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_zeros(shape=(4, 8), dtype=float)
    t[1, 8] = 1.0
    wp.tile_store(a, t)
