import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=64)
    b[i] = wp.untile(t)
