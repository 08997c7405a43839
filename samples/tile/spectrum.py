"""A filter applied to complex spectra, as Warp's FFT convolution examples
filter theirs: each element of a block of the spectrum (a vec2, re and
im) multiplied by the filter's response with wp.tile_map of a wp.func,
then shrunk toward 0 by a threshold given beside the tiles (a func with a
branch), and the energy left summed per block."""

import warp as wp


@wp.func
def cplx_mul(a: wp.vec2, b: wp.vec2):
    return wp.vec2(a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])


@wp.func
def shrink(z: wp.vec2, t: float):
    r = wp.length(z)
    if r > t:
        return z * ((r - t) / r)
    return wp.vec2(0.0, 0.0)


@wp.kernel
def filter_spectrum(
    spectrum: wp.array2d(dtype=wp.vec2),
    response: wp.array2d(dtype=wp.vec2),
    threshold: float,
    filtered: wp.array2d(dtype=wp.vec2),
    energy: wp.array(dtype=float),
):
    i = wp.tid()
    s = wp.tile_load(spectrum, shape=(4, 8), offset=(i * 4, 0))
    h = wp.tile_load(response, shape=(4, 8), offset=(i * 4, 0))
    y = wp.tile_map(shrink, wp.tile_map(cplx_mul, s, h), threshold)
    wp.tile_store(filtered, y, offset=(i * 4, 0))
    wp.tile_store(energy, wp.tile_sum(wp.tile_map(wp.dot, y, y)), offset=i)
