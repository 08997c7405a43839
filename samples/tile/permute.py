"""Rows through a tile of indices (wp.tile_load_indexed,
tile_store_indexed): a block's rows reversed and scaled by a gain its
first thread reads (wp.tile_from_thread), and scattered back into
every other column, the first column dropped by an index of -1."""

import warp as wp

ROWS = 4
COLS = 8
HALF = 4


@wp.kernel
def reverse_rows(x: wp.array2d(dtype=float), gains: wp.array(dtype=float), y: wp.array2d(dtype=float)):
    i = wp.tid()
    order = wp.tile_arange(3, -1, -1, dtype=int)
    rows = wp.tile_load_indexed(x, order, shape=(ROWS, COLS), offset=(i * ROWS, 0))
    g = wp.tile_from_thread(shape=(ROWS, COLS), value=gains[i], thread_idx=0)
    wp.tile_store(y, rows * g, offset=(i * ROWS, 0))


@wp.kernel
def spread_columns(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(ROWS, HALF), offset=(i * ROWS, 0))
    cols = wp.tile_arange(-1, 7, 2, dtype=int)
    wp.tile_store_indexed(y, cols, t, offset=(i * ROWS, 0), axis=1)
