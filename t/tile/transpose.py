# A tiled transpose: each block loads an 8x4 tile of a at (8i, 4j) and
# stores its transpose at (4j, 8i) of b.
import warp as wp


@wp.kernel
def tile_transpose(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float)):
    i, j = wp.tid()
    t = wp.tile_load(a, shape=(8, 4), offset=(i * 8, j * 4))
    wp.tile_store(b, wp.tile_transpose(t), offset=(j * 4, i * 8))
