# atomic_min/atomic_max inside a loop and inside a wp.func called in a loop,
# int atomic_max beside them.
import warp as wp


@wp.func
def keep(mx: wp.array(dtype=float), j: int, v: float) -> float:
    wp.atomic_max(mx, j, v)
    return v * 0.5


@wp.kernel
def review_minmax_loop(xs: wp.array(dtype=float), ys: wp.array(dtype=float), mn: wp.array(dtype=float), mx: wp.array(dtype=float), cnt: wp.array(dtype=int), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = xs[i]
    y = ys[i]
    s = x
    for k in range(i % 3 + 1):
        s = s * y + 0.3 * float(k)
        wp.atomic_min(mn, (i + k) % n, s)
        s = keep(mx, (i * 2 + k) % n, s * x) + s
        wp.atomic_max(cnt, k % n, int(s * 10.0))
    out[i] = s
