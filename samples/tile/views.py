"""Parts of tiles: a second difference along a tile's rows through three
views shifted by a row (wp.tile_view), and a matrix assembled from blocks
(wp.tile_assign), one row copied over another (t[i] = u)."""

import warp as wp

N = 8
H = 10  # N rows and a row above and below


@wp.kernel
def row_stencil(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(H, N), offset=(i * N, 0))
    up = wp.tile_view(t, offset=(0, 0), shape=(N, N))
    mid = wp.tile_view(t, offset=(1, 0), shape=(N, N))
    down = wp.tile_view(t, offset=(2, 0), shape=(N, N))
    wp.tile_store(y, mid * 2.0 - up - down, offset=(i * N, 0))


@wp.kernel
def assemble(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    m = wp.tile_zeros(shape=(N, N), dtype=float)
    ta = wp.tile_load(a, shape=(4, 4), offset=(i * 4, 0))
    tb = wp.tile_load(b, shape=(4, 4), offset=(i * 4, 0))
    wp.tile_assign(m, ta)
    wp.tile_assign(m, wp.tile_transpose(tb), offset=(4, 4))
    wp.tile_assign(m, ta * tb, offset=(0, 4))
    m[N - 1] = m[i % 4] * 0.5
    wp.tile_store(out, m, offset=(i * N, 0))
