# while condition and for bound computed by wp.funcs that contain loops and
# early returns.
import warp as wp


@wp.func
def h(x: float, n: int) -> float:
    s = x
    k = int(0)
    while k < n:
        s = s * 0.5 + wp.cos(s)
        k += 1
        if s < 0.2:
            return s * 3.0
    return s


@wp.func
def bound(x: float) -> int:
    return int(wp.abs(x) * 4.0) + 1


@wp.kernel
def review_while_func(xs: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    y = x
    c = int(0)
    while h(y, 3) > 0.6 and c < 5:
        for j in range(bound(y)):
            if j == 2:
                continue
            y = y * 0.9 - h(x * float(j), j) * 0.05
        c += 1
    out[i] = y * h(y, c)
