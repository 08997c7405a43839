import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), n: int):
    t = wp.tile_load(a, shape=(n,))
    wp.tile_store(a, t)
