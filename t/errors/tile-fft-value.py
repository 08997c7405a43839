import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.vec2f)):
    t = wp.tile_load(a, shape=(2, 8))
    u = wp.tile_fft(t)
    wp.tile_store(a, u)
