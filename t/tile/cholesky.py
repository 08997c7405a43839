"""Cholesky factors and triangular solves of tiles (wp.tile_cholesky,
tile_cholesky_solve, tile_lower_solve, tile_upper_solve), each block a
diagonal 8x8 block of a symmetric positive definite A (krun --law A=spd,
t/tile/options.tsv): the lower factor and a solve of one column in
float64; the upper factor, a solve of three columns with it, and the two
triangular solves by themselves in float32."""

import warp as wp

N = 8


@wp.kernel
def factor(A: wp.array2d(dtype=wp.float64), L: wp.array2d(dtype=wp.float64), x: wp.array(dtype=wp.float64),
           y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    a = wp.tile_load(A, shape=(N, N), offset=(i * N, i * N))
    l = wp.tile_cholesky(a)
    wp.tile_store(L, l, offset=(i * N, i * N))
    b = wp.tile_load(x, shape=N, offset=i * N)
    wp.tile_store(y, wp.tile_cholesky_solve(l, b), offset=i * N)


@wp.kernel
def upper(A: wp.array2d(dtype=float), U: wp.array2d(dtype=float), X: wp.array2d(dtype=float),
          Y: wp.array2d(dtype=float), Z: wp.array2d(dtype=float)):
    i = wp.tid()
    a = wp.tile_load(A, shape=(N, N), offset=(i * N, i * N))
    u = wp.tile_cholesky(a, fill_mode="upper")
    wp.tile_store(U, u, offset=(i * N, i * N))
    b = wp.tile_load(X, shape=(N, 3), offset=(i * N, 0))
    wp.tile_store(Y, wp.tile_cholesky_solve(u, b, fill_mode="upper"), offset=(i * N, 0))
    z = wp.tile_upper_solve(u, wp.tile_lower_solve(a, b))
    wp.tile_store(Z, z, offset=(i * N, 0))
