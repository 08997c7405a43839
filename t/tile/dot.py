"""Dot products of whole tiles (wp.tile_dot): of floats, of vec3
(each pair's dot), of 2x2 matrices (the Frobenius product), and of ints,
with their gradients."""

import warp as wp


@wp.kernel
def tile_dots(x: wp.array(dtype=float), y: wp.array(dtype=float), u: wp.array(dtype=wp.vec3),
              m: wp.array(dtype=wp.mat22), out: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(x, shape=16, offset=i * 16)
    b = wp.tile_load(y, shape=16, offset=i * 16)
    wp.tile_store(out, wp.tile_dot(a, b), offset=3 * i)
    v = wp.tile_load(u, shape=16, offset=i * 16)
    wp.tile_store(out, wp.tile_dot(v, v * 2.0), offset=3 * i + 1)
    n = wp.tile_load(m, shape=16, offset=i * 16)
    wp.tile_store(out, wp.tile_dot(n, n), offset=3 * i + 2)


@wp.kernel
def int_dot(p: wp.array2d(dtype=int), q: wp.array(dtype=int)):
    i = wp.tid()
    a = wp.tile_load(p, shape=(2, 8), offset=(2 * i, 0))
    q_ = wp.tile_dot(a, a)
    wp.tile_store(q, q_, offset=i)
