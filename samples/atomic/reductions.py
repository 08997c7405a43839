# Reductions into out[0]: sum of squares, float min/max and int min/max/sub with atomics.
import warp as wp


@wp.kernel
def sum_and_extremes(x: wp.array(dtype=float), total: wp.array(dtype=float), lo: wp.array(dtype=float), hi: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    wp.atomic_add(total, 0, v * v)
    wp.atomic_min(lo, 0, v)
    wp.atomic_max(hi, 0, 2.0 * v)


@wp.kernel
def int_extremes(keys: wp.array(dtype=int), lo: wp.array(dtype=int), hi: wp.array(dtype=int), budget: wp.array(dtype=int)):
    i = wp.tid()
    k = keys[i]
    wp.atomic_min(lo, 0, k)
    wp.atomic_max(hi, 0, k + i)
    wp.atomic_sub(budget, k, 1)
