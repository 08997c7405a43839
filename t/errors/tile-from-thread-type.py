import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.quat), b: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_from_thread(shape=8, value=a[i])
    wp.tile_store(b, wp.tile_zeros(shape=8, dtype=float))
