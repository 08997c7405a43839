import warp as wp


@wp.func
def f(a: wp.array(dtype=float)):
    return wp.tile_load(a, shape=4)


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = f(a)
