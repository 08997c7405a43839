import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float), b: wp.array(dtype=float)):
    t = wp.tile_zeros(shape=(4, 4), dtype=float)
    row = t[1]
    t += wp.tile_ones(shape=(4, 4), dtype=float)
    wp.tile_store(b, row)
    wp.tile_store(a, t)
