import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_zeros(shape=(4, 4), dtype=float)
    row = wp.tile_view(t, offset=(1,))
    row[2] = 1.0
    wp.tile_store(a, t)
