import warp as wp


@wp.func
def relu(x: float):
    return wp.max(x, 0.0)


@wp.kernel
def k(a: wp.array(dtype=int), b: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=4)
    wp.tile_store(b, wp.tile_map(relu, t))
