import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.vec2f)):
    t = wp.tile_load(a, shape=8)
    wp.tile_ifft(t)
    wp.tile_store(a, t)
