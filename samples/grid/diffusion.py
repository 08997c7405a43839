# 2-D and 3-D grids: a heat-diffusion step with i, j = wp.tid(), clamped neighbours, and a 3-D average.
import warp as wp


@wp.kernel
def diffuse(u: wp.array2d(dtype=float), u_new: wp.array2d(dtype=float), alpha: float):
    i, j = wp.tid()
    nx = u.shape[0]
    ny = u.shape[1]
    left = u[wp.max(i - 1, 0), j]
    right = u[wp.min(i + 1, nx - 1), j]
    down = u[i, wp.max(j - 1, 0)]
    up = u[i, wp.min(j + 1, ny - 1)]
    lap = left + right + down + up - 4.0 * u[i, j]
    u_new[i, j] = u[i, j] + alpha * lap


@wp.kernel
def smooth3(a: wp.array3d(dtype=float), out: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    k1 = (k + 1) % a.shape[2]
    out[i, j, k] = 0.5 * (a[i, j, k] + a[i][j][k1])
