# Integer arithmetic: floor division, modulo and int->float conversion for bucketing keys.
import warp as wp


@wp.kernel
def bucket_keys(n: int, keys: wp.array(dtype=int), values: wp.array(dtype=float), bucket: wp.array(dtype=int), frac: wp.array(dtype=float)):
    i = wp.tid()
    k = keys[i]
    b = (k * 7 + i) % n
    q = k // 3
    r = k - q * 3
    bucket[i] = b
    frac[i] = float(q) + float(r) / 3.0 + values[b]


@wp.kernel
def neighbour_average(n: int, counts: wp.array(dtype=int), avg: wp.array(dtype=int), rem: wp.array(dtype=float)):
    i = wp.tid()
    left = counts[(i + n - 1) % n]
    right = counts[(i + 1) % n]
    total = left + counts[i] + right
    a = total / 3
    avg[i] = a
    rem[i] = float(total) / 3.0 - float(a)
