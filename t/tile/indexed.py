"""Tiles through a tile of indices along an axis (wp.tile_load_indexed,
tile_store_indexed, tile_atomic_add_indexed): rows gathered in reverse
order, their squares stored back there, themselves added into another
array at the rows the indices give, and a scatter whose index -1 leaves
its element out."""

import warp as wp


@wp.kernel
def gather(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float), z: wp.array2d(dtype=float)):
    i = wp.tid()
    idx = wp.tile_arange(3, -1, -1, dtype=int)
    t = wp.tile_load_indexed(x, indices=idx, shape=(4, 8), offset=(i * 4, 0), axis=0)
    wp.tile_store_indexed(y, idx, t * t, offset=(i * 4, 0), axis=0)
    wp.tile_atomic_add_indexed(z, idx, t, axis=0)


@wp.kernel
def scatter_cols(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(2, 4), offset=(i * 2, 0))
    cols = wp.tile_arange(-1, 7, 2, dtype=int)
    wp.tile_store_indexed(y, cols, t, offset=(i * 2, 0), axis=1)
