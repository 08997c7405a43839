"""Tile elements set by index (t[i] = x, t[i, j] *= x): a signal's ends
pinned to boundary values and its middle clipped before a smoothing
step, and a block whose diagonal a loop sets from another tile, one
element scaled and one set from others."""

import warp as wp

N = 16


@wp.kernel
def pin_ends(x: wp.array(dtype=float), left: wp.array(dtype=float), right: wp.array(dtype=float),
             y: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=N, offset=i * N)
    t[0] = left[i]
    t[N - 1] = right[i]
    t[N // 2] = wp.min(t[N // 2], 0.5)
    wp.tile_store(y, wp.tile_map(wp.sin, t) * 0.5 + t * 0.5, offset=i * N)


@wp.kernel
def set_diagonal(a: wp.array2d(dtype=float), d: wp.array(dtype=float), w: wp.array(dtype=float),
                 out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 8), offset=(i * 4, 0))
    diag = wp.tile_load(d, shape=4, offset=i * 4)
    for r in range(4):
        t[r, r] = diag[r] * w[i]
    t[1, 5] *= w[i]
    t[3, i % 8] = t[0, 0] - t[3, 7]
    wp.tile_store(out, t, offset=(i * 4, 0))
