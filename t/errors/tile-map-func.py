import warp as wp


@wp.func
def relu(x: float):
    return wp.max(x, 0.0)


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=4)
    wp.tile_store(a, wp.tile_map(relu, t))
