# atomic_add scatters (gather in the backward pass), atomic_min/max give the
# gradient to the value that won.
import warp as wp


@wp.kernel
def atomics(xs: wp.array(dtype=float), total: wp.array(dtype=float), lo: wp.array(dtype=float), hi: wp.array(dtype=float), bins: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    wp.atomic_add(total, 0, x * x)
    wp.atomic_sub(bins, i % 4, wp.sin(x))
    wp.atomic_min(lo, 0, 3.0 * x)
    wp.atomic_max(hi, i % 2, x + 0.5 * x * x)
    bins[i % 4] += x
