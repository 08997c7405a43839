import warp as wp

N = wp.constant(16)


@wp.kernel
def smooth(x: wp.array(dtype=float), h: wp.array2d(dtype=wp.float16), y: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=N, offset=i * N)
    s = wp.tile_map(wp.sin, t) * 2.0 + wp.tile_full(shape=N, value=0.5, dtype=float)
    m = wp.tile_sum(wp.tile_map(wp.abs, t))
    wp.tile_store(y, s / m[0], offset=i * N)
    a = wp.tile_load(h, shape=(4, 8), offset=(i * 4, 0))
    b = wp.tile_transpose(wp.tile_astype(a, dtype=float))
    wp.tile_store(out, wp.tile_matmul(b, wp.tile_astype(a, dtype=float)), offset=(i * 8, 0))
