"""Tiles of each thread's value (wp.tile, wp.untile): the threads of a
block pool their numbers, for one atomic add per block instead of one per
thread, and take them back.  Kernels like these are
launched with wp.launch(kernel, dim=n, block_dim=B): a block is B threads
in a row."""

import warp as wp


@wp.kernel
def kinetic_energy(v: wp.array(dtype=wp.vec3), mass: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    e = 0.5 * mass[i] * wp.dot(v[i], v[i])
    wp.tile_atomic_add(total, wp.tile_sum(wp.tile(e)))


@wp.kernel
def damp(x: wp.array(dtype=float), rate: float, y: wp.array(dtype=float), total: wp.array(dtype=float)):
    # each thread's value through the block's tile and back, and the
    # block's sum of what came out
    i = wp.tid()
    xi = x[i]
    t = wp.tile(xi)
    d = wp.tile_map(wp.exp, t * (-rate)) * t
    y[i] = wp.untile(d)
    wp.tile_atomic_add(total, wp.tile_sum(d))


@wp.kernel
def momentum(v: wp.array(dtype=wp.vec3), mass: wp.array(dtype=float), p: wp.array(dtype=wp.vec3)):
    # the particles' momentum, a vector of each thread's in the tile
    i = wp.tid()
    t = wp.tile(mass[i] * v[i], preserve_type=True)
    wp.tile_atomic_add(p, wp.tile_sum(t))
