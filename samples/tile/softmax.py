"""Row softmax, a smooth activation and a ramp of weights, element by
element (wp.tile_map, wp.tile_arange)."""

import warp as wp

ROW = wp.constant(16)


@wp.kernel
def softmax_rows(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(1, ROW), offset=(i, 0))
    e = wp.tile_map(wp.exp, t)
    total = wp.tile_sum(e)
    wp.tile_store(y, e / total[0], offset=(i, 0))


@wp.kernel
def soft_clip(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float), scale: float):
    i, j = wp.tid()
    t = wp.tile_load(x, shape=(4, 4), offset=(i * 4, j * 4))
    s = wp.tile_map(wp.tanh, t * scale) + wp.tile_map(wp.sin, t) * 0.25
    wp.tile_store(y, s, offset=(i * 4, j * 4))


@wp.kernel
def ramp_weights(x: wp.array(dtype=float), y: wp.array(dtype=float), slots: wp.array(dtype=int)):
    # a linear ramp of weights over each block's 16 elements
    i = wp.tid()
    w = wp.tile_arange(0.0, 1.6, 0.1)
    t = wp.tile_load(x, shape=16, offset=i * 16)
    wp.tile_store(y, t * w, offset=i * 16)
    wp.tile_store(slots, wp.tile_arange(9, 0, -3, dtype=int), offset=i * 3)
