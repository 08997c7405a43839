# Scattering into a 2-D grid with a[i, j] += v and wp.atomic_add at two indices; a 2-D field of vectors.
import warp as wp


@wp.kernel
def splat(pos: wp.array[wp.vec2], mass: wp.array[float], grid: wp.array2d[float], cell: float):
    p = wp.tid()
    x = pos[p]
    inv_cell = 1.0 / (wp.abs(cell) + 0.25)
    gi = int(wp.abs(x[0]) * inv_cell) % grid.shape[0]
    gj = int(wp.abs(x[1]) * inv_cell) % grid.shape[1]
    grid[gi, gj] += mass[p]
    wp.atomic_add(grid, gj % grid.shape[0], gi % grid.shape[1], 0.5 * mass[p])


@wp.kernel
def curl_free(phi: wp.array2d(dtype=float), vel: wp.array(dtype=wp.vec2, ndim=2)):
    i, j = wp.tid()
    n = phi.shape[1]
    jp = wp.min(j + 1, n - 1)
    ip = wp.min(i + 1, phi.shape[0] - 1)
    vel[i, j] = wp.vec2(phi[ip, j] - phi[i, j], phi[i, jp] - phi[i, j])
