"""Prefix sums of tiles (wp.tile_scan_inclusive, tile_scan_exclusive):
of floats, with a gradient (the suffix sums of the adjoint, which Warp's
backward leaves out), and of int flags over a 2-D tile, row-major."""

import warp as wp


@wp.kernel
def prefix(x: wp.array(dtype=float), y: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=24, offset=i * 24)
    wp.tile_store(y, wp.tile_scan_inclusive(t * t), offset=i * 24)
    wp.tile_store(z, wp.tile_scan_exclusive(t), offset=i * 24)


@wp.kernel
def counts(flags: wp.array2d(dtype=int), pos: wp.array2d(dtype=int)):
    i = wp.tid()
    f = wp.tile_load(flags, shape=(4, 8), offset=(i * 4, 0))
    wp.tile_store(pos, wp.tile_scan_exclusive(f), offset=(i * 4, 0))


@wp.kernel
def fresh(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    # a tile made empty, then loaded
    i = wp.tid()
    t = wp.tile_empty(shape=24, dtype=float)
    t = wp.tile_load(x, shape=24, offset=i * 24)
    wp.tile_store(y, wp.tile_scan_inclusive(t), offset=i * 24)
