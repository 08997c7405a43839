"""Tiles sorted in place (wp.tile_sort): float keys with int values over
a tile of 24 (padded to 32 in the sort), with the gradients that reach
the keys and the float values through the order, and int keys of a 2-D
tile, row-major, with ties taken in their order."""

import warp as wp


@wp.kernel
def sort_pairs(k: wp.array(dtype=float), v: wp.array(dtype=float), ks: wp.array(dtype=float),
               vs: wp.array(dtype=float)):
    i = wp.tid()
    keys = wp.tile_load(k, shape=24, offset=i * 24)
    values = wp.tile_load(v, shape=24, offset=i * 24)
    wp.tile_sort(keys, values)
    wp.tile_store(ks, keys * keys, offset=i * 24)
    wp.tile_store(vs, values, offset=i * 24)


@wp.kernel
def rank_ints(n: wp.array2d(dtype=int), slot: wp.array2d(dtype=int)):
    i = wp.tid()
    keys = wp.tile_load(n, shape=(4, 8), offset=(i * 4, 0))
    where = wp.tile_arange(32, dtype=int)
    w = wp.tile_reshape(where, shape=(4, 8))
    wp.tile_sort(keys, w)
    wp.tile_store(slot, w, offset=(i * 4, 0))
