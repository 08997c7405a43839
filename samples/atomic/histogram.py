# Scatter with atomics: an integer histogram of keys and a float-weighted histogram using arr[j] += x.
import warp as wp


@wp.kernel
def histogram(n: int, keys: wp.array(dtype=int), counts: wp.array(dtype=int)):
    i = wp.tid()
    b = (keys[i] * 3) % n
    wp.atomic_add(counts, b, 1)


@wp.kernel
def weighted_histogram(keys: wp.array(dtype=int), w: wp.array(dtype=float), bins: wp.array(dtype=float)):
    i = wp.tid()
    b = keys[i] // 4
    bins[b] += w[i] * w[i]
