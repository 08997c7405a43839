import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    x = wp.tile_load(a, shape=(4, 4))
    wp.tile_scatter_masked(a, x)
