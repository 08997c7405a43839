"""A tile of three dimensions: loaded, squared, stored."""

import warp as wp


@wp.kernel
def load3(a: wp.array3d(dtype=float), b: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    t = wp.tile_load(a, shape=(2, 2, 2), offset=(i * 2, j * 2, k * 2))
    wp.tile_store(b, t * t, offset=(i * 2, j * 2, k * 2))
