"""wp.tile_from_thread: a tile full of one thread's value, scaling a
loaded tile; the value's gradient reaches that thread alone."""

import warp as wp


@wp.kernel
def spread(x: wp.array(dtype=float), s: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    v = s[i] * 2.0
    t = wp.tile_from_thread(shape=16, value=v, thread_idx=0)
    u = wp.tile_load(x, shape=16, offset=i * 16)
    wp.tile_store(y, t * u + t, offset=i * 16)


@wp.kernel
def spread2d(x: wp.array2d(dtype=float), s: wp.array(dtype=wp.vec2), y: wp.array2d(dtype=float)):
    i = wp.tid()
    sv = s[i]
    t = wp.tile_from_thread((4, 4), sv, 0)
    u = wp.tile_load(x, shape=(4, 4), offset=(i * 4, 0))
    a = wp.tile_map(wp.dot, t, t)
    wp.tile_store(y, a * u, offset=(i * 4, 0))
