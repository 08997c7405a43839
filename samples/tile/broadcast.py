"""Broadcasts and sums along an axis: a bias row and a column of scales
spread over a block, its row and column sums, and its energy."""

import warp as wp


@wp.kernel
def scaled_bias(
    x: wp.array2d(dtype=float),
    scale: wp.array2d(dtype=float),
    bias: wp.array2d(dtype=float),
    y: wp.array2d(dtype=float),
    row_sums: wp.array(dtype=float),
    col_sums: wp.array(dtype=float),
    energy: wp.array(dtype=float),
):
    i = wp.tid()
    a = wp.tile_load(x, shape=(4, 8), offset=(i * 4, 0))
    b = wp.tile_load(bias, shape=(1, 8), offset=(i, 0))
    c = wp.tile_load(scale, shape=(4, 1), offset=(i * 4, 0))
    z = (a + wp.tile_broadcast(b, shape=(4, 8))) * wp.tile_broadcast(c, shape=(4, 8))
    wp.tile_store(y, z, offset=(i * 4, 0))
    wp.tile_store(row_sums, wp.tile_sum(z, axis=1), offset=i * 4)
    wp.tile_store(col_sums, wp.tile_sum(z, axis=0), offset=i * 8)
    flat = wp.tile_squeeze(wp.tile_reshape(z, shape=(1, 32)))
    wp.tile_atomic_add(energy, wp.tile_sum(flat * flat, axis=0))
