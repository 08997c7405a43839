import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    idx = wp.tile_arange(8, dtype=float)
    t = wp.tile_load_indexed(a, idx, shape=8)
    wp.tile_store(b, t)
