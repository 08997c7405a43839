import warp as wp

TILE_M = wp.constant(8)
TILE_N = wp.constant(4)
TILE_K = wp.constant(8)


@wp.kernel
def tile_gemm(A: wp.array2d(dtype=float), B: wp.array2d(dtype=float), C: wp.array2d(dtype=float)):
    i, j = wp.tid()
    sum = wp.tile_zeros(shape=(TILE_M, TILE_N), dtype=float)
    M = A.shape[0]
    count = int(A.shape[1] / TILE_K)
    for k in range(0, count):
        a = wp.tile_load(A, shape=(TILE_M, TILE_K), offset=(i * TILE_M, k * TILE_K))
        b = wp.tile_load(B, shape=(TILE_K, TILE_N), offset=(k * TILE_K, j * TILE_N))
        wp.tile_matmul(a, b, sum)
    wp.tile_store(C, sum, offset=(i * TILE_M, j * TILE_N))


@wp.kernel
def scale_sum(x: wp.array(dtype=float), y: wp.array(dtype=float), total: wp.array(dtype=float), s: float):
    i = wp.tid()
    t = wp.tile_load(x, shape=16, offset=i * 16)
    u = t * s + wp.tile_ones(shape=16, dtype=float)
    wp.tile_store(y, u, offset=i * 16)
    r = wp.tile_sum(u)
    total[i] = r[0] + wp.tile_extract(t, 3)
