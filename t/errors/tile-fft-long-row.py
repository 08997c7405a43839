import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.vec2d)):
    t = wp.tile_load(a, shape=(1, 4097))
    wp.tile_fft(t)
    wp.tile_store(a, t)
