import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float)):
    idx = wp.tile_arange(4, dtype=int)
    t = wp.tile_load(a, shape=(8, 8))
    wp.tile_store_indexed(b, idx, t, axis=1)
