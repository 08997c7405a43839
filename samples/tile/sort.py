"""Sorting in a block (wp.tile_sort): a median filter, the middle of each
tile's sorted values, and particles ranked by depth, their ids carried
along with the keys."""

import warp as wp

N = 32


@wp.kernel
def median_filter(x: wp.array(dtype=float), weights: wp.array(dtype=float), med: wp.array(dtype=float)):
    i = wp.tid()
    keys = wp.tile_load(x, shape=N, offset=i * N)
    w = wp.tile_load(weights, shape=N, offset=i * N)
    wp.tile_sort(keys, w)
    # the weighted middle pair of the sorted values
    m = 0.5 * (keys[N // 2 - 1] * w[N // 2 - 1] + keys[N // 2] * w[N // 2])
    wp.tile_store(med, wp.tile_full(shape=1, value=m, dtype=float), offset=i)


@wp.kernel
def depth_order(depth: wp.array(dtype=float), ids: wp.array(dtype=int), order: wp.array(dtype=int)):
    i = wp.tid()
    d = wp.tile_load(depth, shape=N, offset=i * N)
    p = wp.tile_load(ids, shape=N, offset=i * N)
    wp.tile_sort(d, p)
    wp.tile_store(order, p, offset=i * N)
