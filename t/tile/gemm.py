# A tiled matrix product C = A B: one block per 8x4 tile of C, a k-loop of
# 8x8 and 8x4 tiles of A and B accumulated with wp.tile_matmul(a, b, out).
# Launched over a grid of rank 2 (wp.launch_tiled(tile_gemm, dim=(M/8, N/4))).
import warp as wp

TILE_M = wp.constant(8)
TILE_N = wp.constant(4)
TILE_K = wp.constant(8)


@wp.kernel
def tile_gemm(A: wp.array2d(dtype=float), B: wp.array2d(dtype=float), C: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(TILE_M, TILE_N), dtype=float)
    count = int(A.shape[1] / TILE_K)
    for k in range(0, count):
        a = wp.tile_load(A, shape=(TILE_M, TILE_K), offset=(i * TILE_M, k * TILE_K))
        b = wp.tile_load(B, shape=(TILE_K, TILE_N), offset=(k * TILE_K, j * TILE_N))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(C, acc, offset=(i * TILE_M, j * TILE_N))
