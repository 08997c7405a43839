"""A weighted histogram of each block's values, loaded as tiles, its bins
a shared tile that the block's threads add into (wp.tile_scatter_add):
each thread takes every block_dim-th value of the block's, a value
outside [-1, 1) adding to no bin."""

import warp as wp

BINS = 4
COUNT = 32


@wp.kernel
def histogram(data: wp.array(dtype=float), weights: wp.array(dtype=float), out: wp.array(dtype=float)):
    blk, lane = wp.tid()
    xs = wp.tile_load(data, shape=COUNT, offset=blk * COUNT)
    ws = wp.tile_load(weights, shape=COUNT, offset=blk * COUNT)
    bins = wp.tile_zeros(shape=BINS, dtype=float)
    for k in range(lane, COUNT, wp.block_dim()):
        b = int(wp.floor((xs[k] + 1.0) * 0.5 * float(BINS)))
        wp.tile_scatter_add(bins, b, ws[k], b >= 0 and b < BINS)
    wp.tile_store(out, bins, offset=blk * BINS)
