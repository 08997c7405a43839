import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_load(a, shape=(4, 3))
    wp.tile_store(a, wp.tile_broadcast(t, shape=(4, 8)))
