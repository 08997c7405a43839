import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_zeros(shape=(4, 4), dtype=float)
    wp.tile_assign(t, wp.tile_ones(shape=(2, 2), dtype=float), offset=(3, 0))
    wp.tile_store(a, t)
