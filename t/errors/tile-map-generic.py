import typing

import warp as wp


@wp.func
def norm(x: typing.Any):
    return wp.length(x)


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=4)
    wp.tile_store(a, wp.tile_map(norm, t))
