import warp as wp


@wp.func
def s9(a: float, b: float, c: float, d: float, e: float, f: float, g: float, h: float, i: float):
    return a + b + c + d + e + f + g + h + i


@wp.kernel
def k(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    t = wp.tile_load(x, shape=8)
    wp.tile_store(y, wp.tile_map(s9, t, t, t, t, t, t, t, t, t))
