import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_zeros(shape=(4, 4), dtype=float)
    d = wp.tile_ones(shape=4, dtype=wp.float64)
    wp.tile_store(a, wp.tile_diag_add(t, d))
