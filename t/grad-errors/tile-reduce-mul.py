import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.float16), b: wp.array(dtype=wp.float16)):
    t = wp.tile_load(a, shape=16)
    wp.tile_store(b, wp.tile_reduce(wp.mul, t))
