import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array(dtype=int)):
    keys = wp.tile_load(a, shape=16)
    values = wp.tile_load(b, shape=8)
    wp.tile_sort(keys, values)
    wp.tile_store(b, values)
