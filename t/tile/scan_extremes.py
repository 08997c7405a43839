"""Prefix maxima and minima of tiles (wp.tile_scan_max_inclusive,
tile_scan_min_inclusive): of floats, with gradients (each new extreme
gets the adjoints of the results that are it), and of ints over a 2-D
tile, row-major, with ties."""

import warp as wp


@wp.kernel
def running(x: wp.array(dtype=float), hi: wp.array(dtype=float), lo: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=24, offset=i * 24)
    wp.tile_store(hi, wp.tile_scan_max_inclusive(t), offset=i * 24)
    wp.tile_store(lo, wp.tile_scan_min_inclusive(t * t), offset=i * 24)


@wp.kernel
def levels(n: wp.array2d(dtype=int), top: wp.array2d(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(n, shape=(4, 8), offset=(i * 4, 0))
    wp.tile_store(top, wp.tile_scan_max_inclusive(t) - wp.tile_scan_min_inclusive(t), offset=(i * 4, 0))
