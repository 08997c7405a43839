# Fourier transforms of a tile's rows (wp.tile_fft, wp.tile_ifft, in
# place): rows of one and of two points, rows of five (not a power of two:
# each element a direct sum) and the inverse of rows of sixteen.
import warp as wp


@wp.kernel
def short_rows(x: wp.array2d(dtype=wp.vec2f), y: wp.array2d(dtype=wp.vec2f), z: wp.array2d(dtype=wp.vec2f)):
    i = wp.tid()
    a = wp.tile_load(x, shape=(4, 1), offset=(i * 4, 0))
    wp.tile_fft(a)
    wp.tile_store(y, a, offset=(i * 4, 0))
    b = wp.tile_load(x, shape=(4, 2), offset=(i * 4, 0))
    wp.tile_ifft(b)
    wp.tile_store(z, b, offset=(i * 4, 0))


@wp.kernel
def five_points(x: wp.array2d(dtype=wp.vec2f), y: wp.array2d(dtype=wp.vec2f)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(3, 5), offset=(i * 3, 0))
    wp.tile_fft(t)
    wp.tile_store(y, t, offset=(i * 3, 0))


@wp.kernel
def inverse16(x: wp.array2d(dtype=wp.vec2f), y: wp.array2d(dtype=wp.vec2f)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(2, 16), offset=(i * 2, 0))
    wp.tile_ifft(t)
    wp.tile_store(y, t, offset=(i * 2, 0))
