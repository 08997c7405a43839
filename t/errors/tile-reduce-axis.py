import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float), b: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=(4, 8))
    wp.tile_store(b, wp.tile_reduce(wp.min, t, axis=1))
