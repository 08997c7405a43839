import warp as wp


@wp.func
def cplx_prod(x: wp.vec2d, y: wp.vec2d):
    return wp.vec2d(x[0] * y[0] - x[1] * y[1], x[0] * y[1] + x[1] * y[0])


@wp.func
def leaky(x: float, slope: float):
    if x > 0.0:
        return x
    return x * slope


@wp.kernel
def conv(x: wp.array2d(dtype=wp.vec2d), y: wp.array2d(dtype=wp.vec2d), z: wp.array2d(dtype=wp.vec2d), a: wp.array(dtype=float), slope: float, b: wp.array(dtype=float)):
    i = wp.tid()
    ta = wp.tile_load(x, shape=(4, 4), offset=(i * 4, 0))
    tb = wp.tile_load(y, shape=(4, 4), offset=(i * 4, 0))
    wp.tile_store(z, wp.tile_map(cplx_prod, ta, tb), offset=(i * 4, 0))
    t = wp.tile_load(a, shape=16, offset=i * 16)
    wp.tile_store(b, wp.tile_map(leaky, t, slope), offset=i * 16)
