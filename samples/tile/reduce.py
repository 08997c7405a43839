"""Block reductions: each block sums a tile of an array, and normalizes a
tile by its length."""

import warp as wp

N = 32


@wp.kernel
def block_sums(x: wp.array(dtype=float), sums: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(x, shape=N, offset=i * N)
    s = wp.tile_sum(t)
    wp.tile_store(sums, s, offset=i)


@wp.kernel
def normalize(x: wp.array(dtype=float), y: wp.array(dtype=float), eps: float):
    i = wp.tid()
    t = wp.tile_load(x, shape=N, offset=i * N)
    sq = wp.tile_sum(t * t)
    norm = wp.sqrt(sq[0] + eps)
    wp.tile_store(y, t / norm, offset=i * N)


@wp.kernel
def total_energy(v: wp.array2d(dtype=float), mass: float, energy: wp.array(dtype=float)):
    # each block adds its tile's kinetic energy into one total
    i, j = wp.tid()
    t = wp.tile_load(v, shape=(4, 8), offset=(i * 4, j * 8))
    e = wp.tile_sum(t * t)
    wp.tile_atomic_add(energy, e * (0.5 * mass))
