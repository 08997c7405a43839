import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_zeros(shape=(4, 4), dtype=float)
    wp.tile_scatter_add(t, i, 0, i, True)
    wp.tile_store(a, wp.tile_sum(t))
