"""A weighted histogram of each block's values, its bins a shared tile
that the block's threads add into (wp.tile_scatter_add): each thread
takes every block_dim-th value of the block's, a value outside [-1, 1)
adding to no bin."""

import warp as wp

BINS = 4
COUNT = 32


@wp.kernel
def histogram(data: wp.array(dtype=float), weights: wp.array(dtype=float), out: wp.array(dtype=float)):
    blk, lane = wp.tid()
    bins = wp.tile_zeros(shape=BINS, dtype=float)
    for k in range(lane, COUNT, wp.block_dim()):
        x = data[blk * COUNT + k]
        b = int(wp.floor((x + 1.0) * 0.5 * float(BINS)))
        wp.tile_scatter_add(bins, b, weights[blk * COUNT + k], b >= 0 and b < BINS)
    wp.tile_store(out, bins, offset=blk * BINS)
