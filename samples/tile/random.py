"""Random tiles (wp.tile_randf, wp.tile_randi), each block drawing from a
state of its own: dropout of a block's rows, each element kept with
probability keep and scaled by 1 / keep, and a bootstrap of a mean, each
block averaging a resample of the N values of data, drawn with
replacement."""

import warp as wp

ROWS = 4
COLS = 8
N = 64
DRAWS = 16


@wp.func
def drop(x: float, u: float, keep: float):
    return wp.where(u < keep, x / keep, 0.0)


@wp.kernel
def dropout(seed: int, keep: float, x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i = wp.tid()
    rng = wp.rand_init(seed, i)
    u = wp.tile_randf(shape=(ROWS, COLS), rng=rng)
    t = wp.tile_load(x, shape=(ROWS, COLS), offset=(i * ROWS, 0))
    wp.tile_store(y, wp.tile_map(drop, t, u, keep), offset=(i * ROWS, 0))


@wp.kernel
def bootstrap_mean(seed: int, data: wp.array(dtype=float), means: wp.array(dtype=float)):
    b = wp.tid()
    rng = wp.rand_init(seed, b)
    picks = wp.tile_randi(shape=DRAWS, rng=rng, min=0, max=N)
    sample = wp.tile_load_indexed(data, picks, shape=(DRAWS,))
    wp.tile_store(means, wp.tile_sum(sample) / float(DRAWS), offset=b)
