import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.vec2), b: wp.array(dtype=int)):
    t = wp.tile_load(a, shape=16)
    wp.tile_store(b, wp.tile_argmin(t))
