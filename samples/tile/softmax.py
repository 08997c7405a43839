"""Row softmax and a smooth activation, element by element with
wp.tile_map."""

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
