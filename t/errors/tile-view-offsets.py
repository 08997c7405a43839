import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = wp.tile_zeros(shape=(4, 4), dtype=float)
    wp.tile_store(a, wp.tile_view(t, offset=(1, 2, 0)))
