# atomic_min and atomic_add on the same array: the final values no longer
# tell which value won the minimum.
import warp as wp


@wp.kernel
def min_then_add(xs: wp.array(dtype=float), lo: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_min(lo, 0, xs[i])
    lo[0] += 0.5
