# A 1-D tile kernel: load 16 values, scale them and add ones, store the
# result, and write the sum of the tile plus one element of the input.
import warp as wp


@wp.kernel
def scale_sum(x: wp.array(dtype=float), y: wp.array(dtype=float), total: wp.array(dtype=float), s: float):
    i = wp.tid()
    t = wp.tile_load(x, shape=16, offset=i * 16)
    u = t * s + wp.tile_ones(shape=16, dtype=float)
    wp.tile_store(y, u, offset=i * 16)
    r = wp.tile_sum(u)
    total[i] = r[0] + t[3]
