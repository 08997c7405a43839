import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_zeros(shape=(512, 512), dtype=float)
    wp.tile_store(a, t)
