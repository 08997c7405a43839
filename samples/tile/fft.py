"""Fourier transforms of a tile's rows: forward, a round trip through
the spectrum, and rows of a length that is not a power of two (float64)."""

import warp as wp

N = wp.constant(8)


@wp.kernel
def spectrum(x: wp.array2d(dtype=wp.vec2f), y: wp.array2d(dtype=wp.vec2f)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(4, N), offset=(i * 4, 0))
    wp.tile_fft(t)
    wp.tile_store(y, t, offset=(i * 4, 0))


@wp.kernel
def round_trip(x: wp.array2d(dtype=wp.vec2f), y: wp.array2d(dtype=wp.vec2f), gain: float):
    i = wp.tid()
    t = wp.tile_load(x, shape=(2, 16), offset=(i * 2, 0))
    wp.tile_fft(t)
    t = t * gain
    wp.tile_ifft(t)
    wp.tile_store(y, t * (1.0 / 16.0), offset=(i * 2, 0))


@wp.kernel
def dft_rows(x: wp.array2d(dtype=wp.vec2d), y: wp.array2d(dtype=wp.vec2d)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(3, 6), offset=(i * 3, 0))
    wp.tile_ifft(t)
    wp.tile_store(y, t, offset=(i * 3, 0))

