"""Transposes through a tile, and a conversion of precision on the way."""

import warp as wp

T = wp.constant(8)


@wp.kernel
def transpose(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i, j = wp.tid()
    t = wp.tile_load(x, shape=(T, T), offset=(i * T, j * T))
    wp.tile_store(y, wp.tile_transpose(t), offset=(j * T, i * T))


@wp.kernel
def transpose_to_double(x: wp.array2d(dtype=float), y: wp.array2d(dtype=wp.float64)):
    i, j = wp.tid()
    t = wp.tile_load(x, shape=(T, 4), offset=(i * T, j * 4))
    d = wp.tile_astype(wp.tile_transpose(t), dtype=wp.float64)
    wp.tile_store(y, d * wp.float64(2.0), offset=(j * 4, i * T))
