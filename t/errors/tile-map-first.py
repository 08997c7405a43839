import warp as wp


@wp.func
def add(x: float, y: float):
    return x + y


@wp.kernel
def k(a: wp.array(dtype=float), s: float):
    t = wp.tile_load(a, shape=4)
    wp.tile_store(a, wp.tile_map(add, s, t))
