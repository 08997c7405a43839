"""Dot products in a block (wp.tile_dot): the cosine of the angle between
two tiles of floats, and the work of tiles of forces along displacements."""

import warp as wp

N = 32


@wp.kernel
def cosine(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.tile_load(a, shape=N, offset=i * N)
    y = wp.tile_load(b, shape=N, offset=i * N)
    xy = wp.tile_dot(x, y)
    xx = wp.tile_dot(x, x)
    yy = wp.tile_dot(y, y)
    wp.tile_store(c, xy * (1.0 / wp.sqrt(xx[0] * yy[0] + 1.0e-6)), offset=i)


@wp.kernel
def work(f: wp.array(dtype=wp.vec3), dx: wp.array(dtype=wp.vec3), w: wp.array(dtype=float)):
    i = wp.tid()
    force = wp.tile_load(f, shape=N, offset=i * N)
    step = wp.tile_load(dx, shape=N, offset=i * N)
    wp.tile_atomic_add(w, wp.tile_dot(force, step))
