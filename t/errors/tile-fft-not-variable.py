import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.vec2f)):
    wp.tile_fft(wp.tile_load(a, shape=(2, 8)))
