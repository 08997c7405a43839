import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    wp.tile_store(a, wp.tile_arange(5, 5))
