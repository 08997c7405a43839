import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    ai = a[i]
    t = wp.tile_reshape(wp.tile(ai), shape=(2, 32))
    wp.tile_store(b, wp.tile_reshape(t, shape=64))
