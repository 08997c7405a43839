"""Prefix sums in a block (wp.tile_scan_inclusive, tile_scan_exclusive):
a cumulative distribution normalized by its total, and each element's
place among the flagged ones of its tile."""

import warp as wp

N = 32


@wp.kernel
def cdf(weights: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    w = wp.tile_load(weights, shape=N, offset=i * N)
    c = wp.tile_scan_inclusive(w * w)
    total = c[N - 1] + 1.0e-6
    wp.tile_store(out, c * (1.0 / total), offset=i * N)


@wp.kernel
def slots(flags: wp.array(dtype=int), slot: wp.array(dtype=int)):
    i = wp.tid()
    f = wp.tile_load(flags, shape=N, offset=i * N)
    wp.tile_store(slot, wp.tile_scan_exclusive(f), offset=i * N)
