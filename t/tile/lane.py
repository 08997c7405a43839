# A tile kernel that reads the thread of its block: i, lane = wp.tid()
# over a grid of one dimension gives the block and the lane (launch it
# with krun --dim N).  Only lane 0 writes the block's sum, so the result
# is the same whatever the block_dim.
import warp as wp


@wp.kernel
def lane_sum(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i, lane = wp.tid()
    t = wp.tile_load(x, shape=16, offset=i * 16)
    s = wp.tile_sum(t * t)
    v = s[0]
    if lane == 0:
        out[i] = v
