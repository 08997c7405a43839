"""Tiles of vectors: each block loads a tile of positions and every
thread sums its pull from them."""

import warp as wp

TILE = wp.constant(16)


@wp.func
def pull(p: wp.vec3, q: wp.vec3):
    d = q - p
    return d / (wp.dot(d, d) + 0.1)


@wp.kernel
def gather_pull(pos: wp.array(dtype=wp.vec3), force: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = pos[i]
    f = wp.vec3(0.0, 0.0, 0.0)
    for k in range(pos.shape[0] // TILE):
        block = wp.tile_load(pos, shape=TILE, offset=k * TILE)
        for j in range(TILE):
            f += pull(p, block[j])
    force[i] = f
