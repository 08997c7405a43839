"""Reductions of whole tiles by an operator (wp.tile_reduce of wp.add,
wp.mul, wp.min and wp.max, and along an axis of wp.add), the places of
the least and greatest elements (wp.tile_argmin, tile_argmax), and the
gradients of tile_min and tile_max, all of it to the element chosen."""

import warp as wp


@wp.kernel
def extremes(x: wp.array(dtype=float), lo: wp.array(dtype=float), hi: wp.array(dtype=float),
             s: wp.array(dtype=float), where: wp.array(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(x, shape=24, offset=i * 24)
    wp.tile_store(lo, wp.tile_reduce(wp.min, t), offset=i)
    wp.tile_store(hi, wp.tile_max(t * t), offset=i)
    wp.tile_store(s, wp.tile_reduce(wp.add, t) + wp.tile_min(t * 2.0), offset=i)
    wp.tile_store(where, wp.tile_argmin(t), offset=2 * i)
    wp.tile_store(where, wp.tile_argmax(t), offset=2 * i + 1)


@wp.kernel
def products(n: wp.array2d(dtype=int), p: wp.array(dtype=int), rows: wp.array(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(n, shape=(2, 3), offset=(i * 2, 0))
    q = wp.tile_reduce(wp.mul, t)
    wp.tile_store(p, q, offset=i)
    wp.tile_store(rows, wp.tile_reduce(wp.add, t, axis=1), offset=2 * i)


@wp.kernel
def scaled_product(x: wp.array(dtype=float), p: wp.array(dtype=float)):
    # a product's gradient: each element's the product of the others
    i = wp.tid()
    t = wp.tile_load(x, shape=12, offset=i * 12)
    wp.tile_store(p, wp.tile_reduce(wp.mul, t * 2.0), offset=i)
