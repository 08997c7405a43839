"""wp.tile_diag_add and wp.tile_axpy: a regularized Gram matrix A^T A +
diag(lambda^2) per block, and a momentum step of gradient descent, the
velocity and the weights updated in place."""

import warp as wp

N = 8
M = 32


@wp.kernel
def gram_ridge(a: wp.array2d(dtype=float), lam: wp.array(dtype=float), g: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(N, N), offset=(i * N, 0))
    l = wp.tile_load(lam, shape=N, offset=i * N)
    gram = wp.tile_matmul(wp.tile_transpose(t), t)
    wp.tile_store(g, wp.tile_diag_add(gram, l * l), offset=(i * N, 0))


@wp.kernel
def momentum_step(w: wp.array(dtype=float), grad: wp.array(dtype=float), vel: wp.array(dtype=float), lr: float,
                  w_out: wp.array(dtype=float), vel_out: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.tile_load(vel, shape=M, offset=i * M) * 0.9
    x = wp.tile_load(w, shape=M, offset=i * M)
    wp.tile_axpy(1.0, wp.tile_load(grad, shape=M, offset=i * M), v)
    wp.tile_axpy(-lr, v, x)
    wp.tile_store(vel_out, v, offset=i * M)
    wp.tile_store(w_out, x, offset=i * M)
