import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=16)
    u = wp.tile_load(a, shape=8)
    wp.tile_store(b, wp.tile_dot(t, u))
