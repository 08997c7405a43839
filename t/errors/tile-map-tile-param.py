import warp as wp


@wp.func
def first(t: wp.tile(dtype=float, shape=(4,))):
    return t[0]


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=4)
    wp.tile_store(a, wp.tile_map(first, t))
