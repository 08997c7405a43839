"""wp.tile_diag_add (a square tile with a 1-D tile added to its diagonal:
Warp's adjoint is empty, ksynth's passes the gradient to both) and
wp.tile_axpy (dest += alpha * src in place, of floats and of vec3)."""

import warp as wp


@wp.kernel
def diag_shift(a: wp.array2d(dtype=float), d: wp.array(dtype=float), y: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 4), offset=(i * 4, 0))
    dt = wp.tile_load(d, shape=4, offset=i * 4)
    u = wp.tile_diag_add(t * t, dt * dt)
    v = wp.tile_diag_add(t, u[0, 0] * dt)
    wp.tile_store(y, wp.tile_matmul(u, v), offset=(i * 4, 0))


@wp.kernel
def axpy(x: wp.array(dtype=float), z: wp.array(dtype=float), y: wp.array(dtype=float)):
    # (alpha a constant: its gradient, a sum over the block's threads,
    # would differ between cpu and sim in the last bits)
    i = wp.tid()
    src = wp.tile_load(x, shape=16, offset=i * 16)
    dest = wp.tile_load(z, shape=16, offset=i * 16)
    wp.tile_axpy(0.75, src * src, dest)
    twice = wp.tile_ones(shape=16, dtype=float)
    wp.tile_axpy(2.0, dest, twice)
    wp.tile_store(y, twice * dest, offset=i * 16)


@wp.kernel
def axpy_vec(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    src = wp.tile_load(x, shape=8, offset=i * 8)
    dest = wp.tile_zeros(shape=8, dtype=wp.vec3)
    wp.tile_axpy(0.5, src, dest)
    wp.tile_axpy(-1.5, src, dest)
    wp.tile_store(y, dest, offset=i * 8)
