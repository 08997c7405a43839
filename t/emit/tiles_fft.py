"""Fourier transforms of tiles in place: a stack of rows (a tile of three
dimensions, float64), the inverse of a tile of four, and rows of six
points (a direct sum into a scratch tile) whose element every thread then
reads."""

import warp as wp


@wp.kernel
def fft_stack(u: wp.array3d(dtype=wp.vec2d), v: wp.array3d(dtype=wp.vec2d)):
    i = wp.tid()
    t = wp.tile_load(u, shape=(2, 3, 4), offset=(i * 2, 0, 0))
    wp.tile_fft(t)
    wp.tile_ifft(t)
    wp.tile_fft(t)
    wp.tile_store(v, t, offset=(i * 2, 0, 0))


@wp.kernel
def ifft_4d(p: wp.array4d(dtype=wp.vec2f), q: wp.array4d(dtype=wp.vec2f)):
    i = wp.tid()
    t = wp.tile_load(p, shape=(1, 2, 2, 8), offset=(i, 0, 0, 0))
    wp.tile_ifft(t)
    wp.tile_store(q, t, offset=(i, 0, 0, 0))


@wp.kernel
def six_points(x: wp.array2d(dtype=wp.vec2f), y: wp.array2d(dtype=wp.vec2f), s: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(2, 6), offset=(i * 2, 0))
    wp.tile_fft(t)
    v = t[1, 2]
    s[i] = v[0] - v[1]
    wp.tile_store(y, t, offset=(i * 2, 0))
