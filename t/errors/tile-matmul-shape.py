import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float), c: wp.array2d(dtype=float)):
    x = wp.tile_load(a, shape=(4, 8))
    y = wp.tile_load(a, shape=(4, 8))
    wp.tile_store(c, wp.tile_matmul(x, y))
