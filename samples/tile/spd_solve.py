# Small dense linear algebra per block, as a Gaussian-process or
# implicit-integration step writes it: each block factors its own
# symmetric positive definite system (a diagonal block of K), solves it
# for a right-hand side, and returns the factor's log-determinant; a
# second kernel whitens a batch of samples through the triangular factor
# alone (L z = e), the way correlated noise is undone.
import warp as wp

N = 8


@wp.kernel
def gp_solve(K: wp.array2d(dtype=wp.float64), y: wp.array(dtype=wp.float64), alpha: wp.array(dtype=wp.float64),
             logdet: wp.array(dtype=wp.float64)):
    i = wp.tid()
    k = wp.tile_load(K, shape=(N, N), offset=(i * N, i * N))
    l = wp.tile_cholesky(k)
    b = wp.tile_load(y, shape=N, offset=i * N)
    wp.tile_store(alpha, wp.tile_cholesky_solve(l, b), offset=i * N)
    d = wp.float64(0.0)
    for j in range(N):
        d += wp.log(l[j, j])
    if i == 0:
        logdet[0] = wp.float64(2.0) * d


@wp.kernel
def whiten(K: wp.array2d(dtype=float), E: wp.array2d(dtype=float), Z: wp.array2d(dtype=float)):
    i = wp.tid()
    c = wp.tile_load(K, shape=(N, N), offset=(i * N, i * N))
    l = wp.tile_cholesky(c)
    e = wp.tile_load(E, shape=(N, 4), offset=(i * N, 0))
    wp.tile_store(Z, wp.tile_lower_solve(l, e), offset=(i * N, 0))
