"""Tiled matrix products: a GEMM that walks K a tile at a time, and a
scaled product of small blocks."""

import warp as wp

TILE = wp.constant(16)


@wp.kernel
def gemm(A: wp.array2d(dtype=float), B: wp.array2d(dtype=float), C: wp.array2d(dtype=float)):
    # each block computes one TILE x TILE tile of C = A @ B
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(TILE, TILE), dtype=float)
    steps = A.shape[1] // TILE
    for k in range(steps):
        a = wp.tile_load(A, shape=(TILE, TILE), offset=(i * TILE, k * TILE))
        b = wp.tile_load(B, shape=(TILE, TILE), offset=(k * TILE, j * TILE))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(C, acc, offset=(i * TILE, j * TILE))


@wp.kernel
def scaled_block_product(A: wp.array2d(dtype=float), B: wp.array2d(dtype=float), C: wp.array2d(dtype=float), alpha: float):
    # C's block = alpha * A's block @ B's block + C's block / 2
    i, j = wp.tid()
    a = wp.tile_load(A, shape=(8, 4), offset=(i * 8, j * 4))
    b = wp.tile_load(B, shape=(4, 8), offset=(j * 4, i * 8))
    c = wp.tile_load(C, shape=(8, 8), offset=(i * 8, j * 8))
    wp.tile_matmul(a, b, c, alpha=alpha, beta=0.5)
    wp.tile_store(C, c, offset=(i * 8, j * 8))
