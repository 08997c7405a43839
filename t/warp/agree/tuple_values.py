# Tuple assignment from values: the right side evaluated whole, then each
# name bound (a, b = b, a swaps; `_` drops a value).
import warp as wp


@wp.kernel
def tuple_values(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec2), out: wp.array(dtype=float)):
    i = wp.tid()
    x, y = a[i] + 0.0, 2.0 * a[i]
    x, y = y, x
    p, _, q = v[i], wp.sin(x), v[i].y * y
    out[i] = x - y * 3.0 + wp.dot(p, p) * q
