"""Parts of tiles: t[i] (a row), wp.tile_view with and without a shape
(a copy here; Warp's shares t's storage), t[i] = row and wp.tile_assign
at constant and block-dependent offsets, of another element type."""

import warp as wp


@wp.kernel
def views(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float), z: wp.array(dtype=float),
          w: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(4, 8), offset=(i * 4, 0))
    row = t[1]
    part = wp.tile_view(t, offset=(1, 2), shape=(2, 4))
    wp.tile_store(z, row * row + wp.tile_view(t, offset=(i % 4,)), offset=i * 8)
    wp.tile_store(w, part * 2.0, offset=(i * 2, 0))
    u = wp.tile_zeros(shape=(4, 8), dtype=float)
    u[2] = row * 3.0
    wp.tile_assign(u, part * part, offset=(0, 4))
    wp.tile_assign(u, wp.tile_ones(shape=(1, 2), dtype=wp.float64), offset=(3, i % 7))
    wp.tile_store(y, u, offset=(i * 4, 0))
