"""Block extremes: a soft range (the largest minus the least element of
each tile, by wp.tile_reduce), where those elements are (wp.tile_argmin,
tile_argmax), a peak normalised by its tile's total, and the drawdown of a
series, its distance below the running maximum (wp.tile_scan_max_inclusive)."""

import warp as wp

N = 32


@wp.kernel
def tile_range(x: wp.array(dtype=float), spread: wp.array(dtype=float), where: wp.array(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(x, shape=N, offset=i * N)
    hi = wp.tile_reduce(wp.max, t)
    lo = wp.tile_reduce(wp.min, t)
    wp.tile_store(spread, hi - lo, offset=i)
    wp.tile_store(where, wp.tile_argmin(t), offset=2 * i)
    wp.tile_store(where, wp.tile_argmax(t), offset=2 * i + 1)


@wp.kernel
def peak_share(v: wp.array2d(dtype=float), share: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(v, shape=(4, 8), offset=(i * 4, 0))
    e = t * t
    peak = wp.tile_max(e)
    total = wp.tile_reduce(wp.add, e)
    wp.tile_store(share, peak * (1.0 / (total[0] + 1.0)), offset=i)


@wp.kernel
def drawdown(price: wp.array(dtype=float), dd: wp.array(dtype=float)):
    i = wp.tid()
    p = wp.tile_load(price, shape=N, offset=i * N)
    wp.tile_store(dd, wp.tile_scan_max_inclusive(p) - p, offset=i * N)
