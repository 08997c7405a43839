import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_load(a, shape=(4, 4), offset=2)
    wp.tile_store(a, t)
