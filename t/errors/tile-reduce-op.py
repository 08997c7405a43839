import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=16)
    wp.tile_store(b, wp.tile_reduce(wp.sub, t))
