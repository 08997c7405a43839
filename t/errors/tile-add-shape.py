import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=4)
    u = wp.tile_load(a, shape=8)
    wp.tile_store(a, t + u)
