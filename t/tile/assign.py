"""Tile elements assigned: t[i, j] = x (set by one thread, the one that
computes the element), t[i] += x and -= x (every thread of the block adds
its x, as in Warp), t[i, j] *= x (read, then set), at constant indices,
at an index of the block, and in a loop."""

import warp as wp


@wp.kernel
def set_elements(x: wp.array2d(dtype=float), s: wp.array(dtype=float), y: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(4, 4), offset=(i * 4, 0))
    t[1, 2] = s[i] * 2.0
    t[3, i % 4] = t[0, 0] + t[1, 2]
    t[0, 1] *= s[i]
    u = t * t
    u[2, 2] = 5.0
    wp.tile_store(y, u, offset=(i * 4, 0))


@wp.kernel
def add_elements(x: wp.array(dtype=float), s: wp.array(dtype=float), y: wp.array(dtype=float)):
    # each thread adds its value: the block's thread 0 s[i], the others 0
    i = wp.tid()
    lane = wp.untile(wp.tile_scan_exclusive(wp.tile(1)))
    t = wp.tile_load(x, shape=16, offset=i * 16)
    v = wp.where(lane == 0, s[i], 0.0)
    t[3] += v
    t[5] -= v * s[i]
    for k in range(4):
        t[k * 2] = t[k * 2 + 1] * 3.0
    wp.tile_store(y, t, offset=i * 16)
